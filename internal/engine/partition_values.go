package engine

import (
	"context"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/table"

	"github.com/lakesql/lakesql/exec"
	"github.com/lakesql/lakesql/planner"
)

// PartitionRows reads iceberg-go's .partitions or .files rows (rr) whole and
// makes their partition column readable: rows sorted by partition value,
// field by field in value order with NULLs last, then by spec id; and the
// year, month and hour transforms' results (whole years, months and hours
// since 1970, as Iceberg stores them) shown as values — a year as the INT
// 2023, a month as '2026-01' and an hour as '2026-01-05-13', Iceberg's human
// form, which the data folders are named with. Day results are DATEs
// already; identity, bucket and truncate values are the values themselves.
// Sorting comes first, on the stored numbers, so that the order is the
// values' order whatever they look like.
func PartitionRows(ctx context.Context, md table.Metadata, rr array.RecordReader) (*arrow.Schema, []arrow.RecordBatch, error) {
	var in []arrow.RecordBatch
	defer func() {
		for _, b := range in {
			b.Release()
		}
	}()
	for rr.Next() {
		b := rr.RecordBatch()
		b.Retain()
		in = append(in, b)
	}
	if err := rr.Err(); err != nil {
		return nil, nil, err
	}
	schema := rr.Schema()
	part := schema.FieldIndices("partition")
	if len(part) == 0 {
		for _, b := range in {
			b.Retain()
		}
		return schema, in, nil
	}
	sorted, err := sortByPartition(ctx, schema, in, part[0])
	if err != nil {
		return nil, nil, err
	}
	defer func() {
		for _, b := range sorted {
			b.Release()
		}
	}()
	transforms := partitionTransforms(md)
	fields := schema.Fields()
	structType := fields[part[0]].Type.(*arrow.StructType)
	readableType, convert := readableStruct(structType, transforms)
	fields[part[0]].Type = readableType
	meta := schema.Metadata()
	outSchema := arrow.NewSchema(fields, &meta)
	out := make([]arrow.RecordBatch, 0, len(sorted))
	for _, b := range sorted {
		cols := make([]arrow.Array, b.NumCols())
		copy(cols, b.Columns())
		cols[part[0]] = convert(b.Column(part[0]).(*array.Struct))
		out = append(out, array.NewRecordBatch(outSchema, cols, b.NumRows()))
		cols[part[0]].Release()
	}
	return outSchema, out, nil
}

// sortByPartition orders the rows by each partition field, ascending with
// NULLs last, then by spec_id where the table has one; rows that tie keep
// their order.
func sortByPartition(ctx context.Context, schema *arrow.Schema, in []arrow.RecordBatch, part int) ([]arrow.RecordBatch, error) {
	structType := schema.Field(part).Type.(*arrow.StructType)
	ref := &planner.ColumnRef{Index: part, Name: "partition", T: structType}
	var keys []planner.SortKey
	for _, f := range structType.Fields() {
		field := &planner.Call{Fn: planner.FnGetField, Args: []planner.Expr{ref, &planner.Literal{Value: f.Name, T: planner.TypeVarchar}}, T: f.Type}
		keys = append(keys, planner.SortKey{Expr: field})
	}
	for _, name := range []string{"spec_id", "file_path"} {
		if idx := schema.FieldIndices(name); len(idx) == 1 {
			keys = append(keys, planner.SortKey{Expr: &planner.ColumnRef{Index: idx[0], Name: name, T: schema.Field(idx[0]).Type}})
		}
	}
	op := exec.NewSort(exec.NewBatches(schema, in), keys)
	if err := op.Open(ctx); err != nil {
		return nil, err
	}
	defer op.Close()
	var out []arrow.RecordBatch
	for {
		b, err := op.Next(ctx)
		if err != nil {
			for _, o := range out {
				o.Release()
			}
			return nil, err
		}
		if b == nil {
			return out, nil
		}
		out = append(out, b)
	}
}

// partitionTransforms maps every partition field id of every spec the table
// has had to its transform.
func partitionTransforms(md table.Metadata) map[int]iceberg.Transform {
	m := map[int]iceberg.Transform{}
	for _, spec := range md.PartitionSpecs() {
		for _, f := range spec.Fields() {
			m[f.FieldID] = f.Transform
		}
	}
	return m
}

// readableStruct returns the readable type of a partition struct and the
// function that converts its values. Fields are found by the field id
// iceberg-go records in their metadata.
func readableStruct(st *arrow.StructType, transforms map[int]iceberg.Transform) (*arrow.StructType, func(*array.Struct) arrow.Array) {
	fields := st.Fields()
	converts := make([]func(arrow.Array) arrow.Array, len(fields))
	for i, f := range fields {
		var t iceberg.Transform
		if id, ok := f.Metadata.GetValue(table.ArrowParquetFieldIDKey); ok {
			if n, err := strconv.Atoi(id); err == nil {
				t = transforms[n]
			}
		}
		if f.Type.ID() != arrow.INT32 {
			continue // only year, month and hour results are stored as numbers to convert
		}
		switch t := t.(type) {
		case iceberg.YearTransform:
			fields[i].Type = arrow.PrimitiveTypes.Int32
			converts[i] = yearsToYear
		case iceberg.MonthTransform, iceberg.HourTransform:
			fields[i].Type = arrow.BinaryTypes.String
			converts[i] = func(a arrow.Array) arrow.Array { return humanStrings(t, a.(*array.Int32)) }
		}
	}
	out := arrow.StructOf(fields...)
	// The children are converted whole and the struct keeps its own offset
	// and validity, so a sliced struct stays correct.
	return out, func(s *array.Struct) arrow.Array {
		children := make([]arrow.ArrayData, len(fields))
		for i, child := range s.Data().Children() {
			if converts[i] == nil {
				children[i] = child
				child.Retain()
				continue
			}
			whole := array.MakeFromData(child)
			converted := converts[i](whole)
			whole.Release()
			children[i] = converted.Data()
			children[i].Retain()
			converted.Release()
		}
		data := array.NewData(out, s.Len(), s.Data().Buffers()[:1], children, s.NullN(), s.Data().Offset())
		for _, c := range children {
			c.Release()
		}
		defer data.Release()
		return array.MakeFromData(data)
	}
}

// yearsToYear turns years since 1970 into the year itself.
func yearsToYear(a arrow.Array) arrow.Array {
	in := a.(*array.Int32)
	b := array.NewInt32Builder(memory.DefaultAllocator)
	defer b.Release()
	b.Reserve(in.Len())
	for i := range in.Len() {
		if in.IsNull(i) {
			b.AppendNull()
		} else {
			b.UnsafeAppend(1970 + in.Value(i))
		}
	}
	return b.NewArray()
}

// humanStrings renders month or hour ordinals as Iceberg's human strings
// (2026-01, 2026-01-05-13), through iceberg-go's own formatter.
func humanStrings(t iceberg.Transform, in *array.Int32) arrow.Array {
	b := array.NewStringBuilder(memory.DefaultAllocator)
	defer b.Release()
	b.Reserve(in.Len())
	for i := range in.Len() {
		if in.IsNull(i) {
			b.AppendNull()
		} else {
			b.Append(t.ToHumanStr(in.Value(i)))
		}
	}
	return b.NewArray()
}
