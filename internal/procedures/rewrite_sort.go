package procedures

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/table"

	"github.com/lakesql/lakesql/exec"
	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/sql"
	"github.com/lakesql/lakesql/value"
)

// rewriteSort is the order the sort strategy writes rows in: either sort
// keys over the table's columns, or a z-order over some of them (Iceberg
// does not allow mixing the two).
type rewriteSort struct {
	keys   []planner.SortKey // over the batch columns, or the z-order key column
	zorder []int             // columns interleaved into the z-order key; nil for a plain sort
}

// parseSortOrder reads a sort_order argument: "a DESC NULLS LAST, b" or
// "zorder(a, b)". As in Iceberg, ASC puts NULLs first and DESC last unless
// the text says otherwise. The text is parsed by the grammar of ALTER TABLE
// … WRITE ORDERED BY, which it is.
func parseSortOrder(text string, cols []planner.ScanColumn) (*rewriteSort, error) {
	st, err := sql.ParseOne("ALTER TABLE t WRITE ORDERED BY " + text)
	if err != nil {
		return nil, fmt.Errorf("sort_order %q: %w", text, err)
	}
	var items []sql.OrderItem
	if alter, ok := st.(*sql.AlterTable); ok {
		if w, ok := alter.Action.(*sql.WriteOrderedBy); ok {
			items = w.Keys
		}
	}
	if len(items) == 0 {
		return nil, fmt.Errorf("sort_order %q is not a list of sort keys", text)
	}
	if call, ok := items[0].Expr.(*sql.FuncCall); ok && strings.EqualFold(call.Name, "zorder") {
		if len(items) > 1 {
			return nil, fmt.Errorf("sort_order %q: zorder(…) cannot be combined with other sort keys", text)
		}
		names := make([]string, len(call.Args))
		for i, arg := range call.Args {
			if names[i] = columnName(arg); names[i] == "" {
				return nil, fmt.Errorf("sort_order %q: zorder(…) takes columns, not %s", text, sql.Format(arg))
			}
		}
		return zorderSort(names, cols)
	}
	sort := &rewriteSort{}
	for _, item := range items {
		name := columnName(item.Expr)
		if name == "" {
			return nil, fmt.Errorf("sort_order %q: %s is not a column (write a column, or a single zorder(…))", text, sql.Format(item.Expr))
		}
		i, err := columnIndex(cols, name)
		if err != nil {
			return nil, err
		}
		nullsFirst := !item.Desc
		if item.NullsFirst != nil {
			nullsFirst = *item.NullsFirst
		}
		sort.keys = append(sort.keys, columnKey(cols, i, item.Desc, nullsFirst))
	}
	return sort, nil
}

// columnName is the name of an unqualified column reference, else "".
func columnName(e sql.Expr) string {
	if ref, ok := e.(*sql.ColumnRef); ok && len(ref.Parts) == 1 {
		return ref.Parts[0]
	}
	return ""
}

// zorderSort is the sort by the z-order key of zorder(names…).
func zorderSort(names []string, cols []planner.ScanColumn) (*rewriteSort, error) {
	if len(names) == 0 {
		return nil, fmt.Errorf("zorder needs at least one column")
	}
	sort := &rewriteSort{}
	for _, name := range names {
		i, err := columnIndex(cols, name)
		if err != nil {
			return nil, err
		}
		if _, err := zorderBytes(cols[i].T); err != nil {
			return nil, err
		}
		sort.zorder = append(sort.zorder, i)
	}
	key := &planner.ColumnRef{Index: len(cols), Name: "zorder", T: arrow.BinaryTypes.Binary}
	sort.keys = []planner.SortKey{{Expr: key}}
	return sort, nil
}

// tableSortOrder is the table's own sort order (ALTER TABLE … WRITE ORDERED
// BY), used by the sort strategy when no sort_order is given.
func tableSortOrder(tbl *table.Table, cols []planner.ScanColumn) (*rewriteSort, error) {
	order := tbl.SortOrder()
	if order.IsUnsorted() {
		return nil, fmt.Errorf("strategy sort needs a sort_order argument, or a table sort order (ALTER TABLE … WRITE ORDERED BY)")
	}
	sort := &rewriteSort{}
	for _, f := range order.Fields() {
		if _, ok := f.Transform.(iceberg.IdentityTransform); !ok {
			return nil, fmt.Errorf("the table sort order's key %s(…) is not supported by rewrite_data_files; pass sort_order", f.Transform)
		}
		i := -1
		for j, c := range cols {
			if c.FieldID == f.SourceID() {
				i = j
			}
		}
		if i < 0 {
			return nil, fmt.Errorf("the table sort order refers to column id %d, which the table no longer has", f.SourceID())
		}
		sort.keys = append(sort.keys, columnKey(cols, i, f.Direction == table.SortDESC, f.NullOrder == table.NullsFirst))
	}
	return sort, nil
}

func columnKey(cols []planner.ScanColumn, i int, desc, nullsFirst bool) planner.SortKey {
	ref := &planner.ColumnRef{Index: i, Name: cols[i].Name, T: cols[i].T}
	return planner.SortKey{Expr: ref, Desc: desc, NullsFirst: nullsFirst}
}

func columnIndex(cols []planner.ScanColumn, name string) (int, error) {
	names := make([]string, len(cols))
	for i, c := range cols {
		if strings.EqualFold(c.Name, name) {
			return i, nil
		}
		names[i] = c.Name
	}
	return 0, fmt.Errorf("sort_order: unknown column %s (columns: %s)", name, strings.Join(names, ", "))
}

// sortedRows is in's rows in the order of sort, with the z-order key as
// one more column when sort is a z-order. The whole group is sorted (exec's
// sort spills past the memory limit), so the files written from it, one
// after the other, cover disjoint ranges of the sort key and pruning on it
// opens one of them.
func sortedRows(in exec.Operator, sort *rewriteSort) exec.Operator {
	if sort.zorder != nil {
		fields := append(slices.Clone(in.Schema().Fields()), arrow.Field{Name: "zorder", Type: arrow.BinaryTypes.Binary})
		in = &zorderInput{Operator: in, cols: sort.zorder, schema: arrow.NewSchema(fields, nil)}
	}
	return exec.NewSort(in, sort.keys)
}

// zorderInput adds the z-order key of cols to its input's batches.
type zorderInput struct {
	exec.Operator
	cols   []int
	schema *arrow.Schema
}

func (z *zorderInput) Schema() *arrow.Schema { return z.schema }

func (z *zorderInput) Next(ctx context.Context) (arrow.RecordBatch, error) {
	batch, err := z.Operator.Next(ctx)
	if err != nil || batch == nil {
		return nil, err
	}
	return withZOrderKey(batch, z.cols)
}

// withZOrderKey returns batch (released) with one more column: the z-order
// key of the columns cols, the bits of their normalized values interleaved
// most significant first, so that byte order of the keys is z-order.
//
// Each value is normalized to 8 bytes whose unsigned order is the value's
// order, as Iceberg's ZOrderByteUtils does: integers, dates, times and
// timestamps with the sign bit flipped, floats by their IEEE bits, decimals
// as floats, strings and binaries by their first 8 bytes (longer values
// sharing a prefix are not ordered among themselves). NULL is all zero
// bits, so NULLs come first.
func withZOrderKey(batch arrow.RecordBatch, cols []int) (arrow.RecordBatch, error) {
	defer batch.Release()
	norm := make([]func(int) uint64, len(cols))
	for i, c := range cols {
		f, err := zorderBytes(batch.Column(c).DataType())
		if err != nil {
			return nil, err
		}
		col := batch.Column(c)
		norm[i] = func(row int) uint64 {
			if col.IsNull(row) {
				return 0
			}
			return f(col, row)
		}
	}
	b := array.NewBinaryBuilder(memory.DefaultAllocator, arrow.BinaryTypes.Binary)
	defer b.Release()
	values := make([]uint64, len(cols))
	key := make([]byte, 8*len(cols))
	for row := range int(batch.NumRows()) {
		for i := range cols {
			values[i] = norm[i](row)
		}
		interleave(key, values)
		b.Append(key)
	}
	keys := b.NewArray()
	defer keys.Release()
	fields := append(batch.Schema().Fields(), arrow.Field{Name: "zorder", Type: arrow.BinaryTypes.Binary})
	columns := append(batch.Columns()[:len(batch.Columns()):len(batch.Columns())], keys)
	return array.NewRecordBatch(arrow.NewSchema(fields, nil), columns, batch.NumRows()), nil
}

// interleave writes the bits of values into key, bit 63 of every value
// first, then bit 62 of every value, and so on.
func interleave(key []byte, values []uint64) {
	clear(key)
	out := 0
	for bit := 63; bit >= 0; bit-- {
		for _, v := range values {
			if v>>uint(bit)&1 == 1 {
				key[out/8] |= 0x80 >> uint(out%8)
			}
			out++
		}
	}
}

// zorderBytes returns the order-preserving 8-byte normalization of a type's
// values (see withZOrderKey).
func zorderBytes(t arrow.DataType) (func(arrow.Array, int) uint64, error) {
	const sign = 1 << 63
	signed := func(v int64) uint64 { return uint64(v) ^ sign }
	switch t.ID() {
	case arrow.INT8:
		return func(a arrow.Array, i int) uint64 { return signed(int64(a.(*array.Int8).Value(i))) }, nil
	case arrow.INT16:
		return func(a arrow.Array, i int) uint64 { return signed(int64(a.(*array.Int16).Value(i))) }, nil
	case arrow.INT32:
		return func(a arrow.Array, i int) uint64 { return signed(int64(a.(*array.Int32).Value(i))) }, nil
	case arrow.INT64:
		return func(a arrow.Array, i int) uint64 { return signed(a.(*array.Int64).Value(i)) }, nil
	case arrow.DATE32:
		return func(a arrow.Array, i int) uint64 { return signed(int64(a.(*array.Date32).Value(i))) }, nil
	case arrow.TIMESTAMP:
		return func(a arrow.Array, i int) uint64 { return signed(int64(a.(*array.Timestamp).Value(i))) }, nil
	case arrow.TIME64:
		return func(a arrow.Array, i int) uint64 { return signed(int64(a.(*array.Time64).Value(i))) }, nil
	case arrow.BOOL:
		return func(a arrow.Array, i int) uint64 {
			if a.(*array.Boolean).Value(i) {
				return sign
			}
			return 0
		}, nil
	case arrow.FLOAT32:
		return func(a arrow.Array, i int) uint64 { return floatBits(float64(a.(*array.Float32).Value(i))) }, nil
	case arrow.FLOAT64:
		return func(a arrow.Array, i int) uint64 { return floatBits(a.(*array.Float64).Value(i)) }, nil
	case arrow.STRING:
		return func(a arrow.Array, i int) uint64 { return prefixBits([]byte(a.(*array.String).Value(i))) }, nil
	case arrow.BINARY:
		return func(a arrow.Array, i int) uint64 { return prefixBits(a.(*array.Binary).Value(i)) }, nil
	case arrow.DECIMAL128:
		// Through float64: monotonic, so equal-or-ordered, which is all a
		// z-order needs.
		scale := t.(*arrow.Decimal128Type).Scale
		return func(a arrow.Array, i int) uint64 {
			return floatBits(value.DecimalToFloat64(a.(*array.Decimal128).Value(i), scale))
		}, nil
	}
	return nil, fmt.Errorf("zorder does not support columns of type %s", planner.TypeString(t))
}

// floatBits maps a float to bits whose unsigned order is the float order.
func floatBits(f float64) uint64 {
	bits := math.Float64bits(f)
	if bits>>63 == 1 {
		return ^bits
	}
	return bits | 1<<63
}

// prefixBits is the first 8 bytes of b, zero padded, as a big-endian number.
func prefixBits(b []byte) uint64 {
	var buf [8]byte
	copy(buf[:], b)
	return binary.BigEndian.Uint64(buf[:])
}
