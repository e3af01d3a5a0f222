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
		text := s.At(i)
		out, e := base64.StdEncoding.AppendDecode(dst, text)
		at, corrupt := e.(base64.CorruptInputError)
		switch {
		case !corrupt:
			return out
		case err != nil: // the first bad row is the one reported
		case len(text)%4 != 0 || int(at) >= len(text):
			err = fmt.Errorf("a value of %d bytes is not base64: its length must be a multiple of 4, padding included", len(text))
		default:
			err = fmt.Errorf("a value is not base64: byte %d (%q) is not a base64 character here", int64(at), text[at])
		}
		return dst
	})
	return releaseOnError(out, wrapError(c, err))
}
