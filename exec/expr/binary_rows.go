package expr

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/lakesql/lakesql/planner"
)

// binaryRows is stringRows for a BINARY result, whose layout a STRING
// array shares.
func (ev *evaluator) binaryRows(ops []operand, row func(dst []byte, i int) []byte) arrow.Array {
	s := ev.stringRows(ops, row)
	defer s.Release()
	d := s.Data()
	data := array.NewData(planner.TypeBinary, d.Len(), d.Buffers(), nil, d.NullN(), d.Offset())
	defer data.Release()
	return array.MakeFromData(data)
}
