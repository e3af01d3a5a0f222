package expr

import (
	"encoding/base64"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakesql/lakesql/planner"
)

// toBase64Kernel is to_base64(x): x's bytes in standard padded base64.
func toBase64Kernel(ev *evaluator, _ *planner.Call, ops []operand) (arrow.Array, error) {
	s := newBytesVec(ops[0])
	return ev.stringRows(ops, func(dst []byte, i int) []byte {
		return base64.StdEncoding.AppendEncode(dst, s.At(i))
	}), nil
}

// fromBase64Kernel is from_base64(s): the bytes standard padded base64
// gives; anything else is an error, as in DuckDB.
func fromBase64Kernel(ev *evaluator, c *planner.Call, ops []operand) (arrow.Array, error) {
	s := newBytesVec(ops[0])
	var err error
	out := ev.binaryRows(ops, func(dst []byte, i int) []byte {
		out, e := base64.StdEncoding.AppendDecode(dst, s.At(i))
		if at, corrupt := e.(base64.CorruptInputError); corrupt {
			err = fmt.Errorf("%q is not base64: a wrong character or length at byte %d", s.At(i), int64(at))
			return dst
		}
		return out
	})
	return releaseOnError(out, wrapError(c, err))
}
