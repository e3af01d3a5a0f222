package procedures

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/iceberg-go/table"

	"github.com/lakesql/lakesql/internal/engine"
	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/sql"
)

// procedureTable loads the table named by a procedure's table argument.
func procedureTable(ctx context.Context, s *engine.Session, args map[string]*planner.Literal) (*table.Table, string, error) {
	name, err := stringArg(args, "table")
	if err != nil {
		return nil, "", err
	}
	ns, t, err := defaultCatalogTable(ctx, s, sql.ObjectName{Parts: strings.Split(name, ".")})
	if err != nil {
		return nil, "", err
	}
	tbl, err := s.Warehouse().LoadTable(ctx, ns, t)
	if err != nil {
		return nil, "", err
	}
	return tbl, ns + "." + t, nil
}

// argValue converts an optional argument to type t, as a one-element array;
// ok is false when the argument was not given.
func argValue(ctx context.Context, args map[string]*planner.Literal, name string, t arrow.DataType) (v arrow.Array, ok bool, err error) {
	lit, given := args[name]
	if !given {
		return nil, false, nil
	}
	if _, isList := lit.Value.([]*planner.Literal); isList {
		return nil, false, fmt.Errorf("argument %s must be a %s, not an array", name, planner.TypeString(t))
	}
	v, err = engine.ConstantValue(ctx, "argument "+name, lit, t)
	return v, err == nil, err
}

func int64Arg(ctx context.Context, args map[string]*planner.Literal, name string) (int64, bool, error) {
	v, ok, err := argValue(ctx, args, name, planner.TypeBigint)
	if !ok {
		return 0, false, err
	}
	return v.(*array.Int64).Value(0), true, nil
}

func requiredInt64Arg(ctx context.Context, args map[string]*planner.Literal, name string) (int64, error) {
	v, ok, err := int64Arg(ctx, args, name)
	if err == nil && !ok {
		err = fmt.Errorf("argument %s is required", name)
	}
	return v, err
}

// positiveIntArg returns an optional count of at least 1, def when not given.
func positiveIntArg(ctx context.Context, args map[string]*planner.Literal, name string, def int) (int, error) {
	v, ok, err := int64Arg(ctx, args, name)
	if err != nil || !ok {
		return def, err
	}
	if v < 1 {
		return 0, fmt.Errorf("argument %s must be at least 1, got %d", name, v)
	}
	return int(v), nil
}

// boolArg returns an optional BOOLEAN argument, false when not given.
func boolArg(ctx context.Context, args map[string]*planner.Literal, name string) (bool, error) {
	v, ok, err := argValue(ctx, args, name, planner.TypeBoolean)
	if !ok {
		return false, err
	}
	return v.(*array.Boolean).Value(0), nil
}

// timeArg returns an optional point-in-time argument: a TIMESTAMP, or a
// string or DATE that casts to one.
func timeArg(ctx context.Context, args map[string]*planner.Literal, name string) (time.Time, bool, error) {
	v, ok, err := argValue(ctx, args, name, planner.TypeTimestampTZ)
	if !ok {
		return time.Time{}, false, err
	}
	return time.UnixMicro(int64(v.(*array.Timestamp).Value(0))), true, nil
}

// int64ListArg returns an optional array(…) of BIGINT values.
func int64ListArg(ctx context.Context, args map[string]*planner.Literal, name string) ([]int64, error) {
	lit, given := args[name]
	if !given {
		return nil, nil
	}
	elems, ok := lit.Value.([]*planner.Literal)
	if !ok {
		return nil, fmt.Errorf("argument %s must be an array, e.g. %s => array(1, 2)", name, name)
	}
	out := make([]int64, len(elems))
	for i, e := range elems {
		v, err := engine.ConstantValue(ctx, "argument "+name, e, planner.TypeBigint)
		if err != nil {
			return nil, err
		}
		out[i] = v.(*array.Int64).Value(0)
	}
	return out, nil
}

// bigintRow is a one-row result of BIGINT columns; a nil cell is NULL.
func bigintRow(names []string, cells ...*int64) *engine.Result {
	fields := make([]arrow.Field, len(names))
	for i, n := range names {
		fields[i] = arrow.Field{Name: n, Type: arrow.PrimitiveTypes.Int64, Nullable: true}
	}
	schema := arrow.NewSchema(fields, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	for i, c := range cells {
		col := b.Field(i).(*array.Int64Builder)
		if c == nil {
			col.AppendNull()
		} else {
			col.Append(*c)
		}
	}
	batch := b.NewRecordBatch()
	defer batch.Release()
	return engine.BatchResult(schema, batch)
}

// defaultCatalogTable splits a procedure's table name into namespace and
// table, which must be the default catalog's: the procedures commit, list
// and delete through the session's warehouse.
func defaultCatalogTable(ctx context.Context, s *engine.Session, name sql.ObjectName) (string, string, error) {
	wh, ns, t, err := s.TableName(ctx, name)
	if err != nil {
		return "", "", err
	}
	if err := s.InDefaultCatalog(wh, name, "procedures and VACUUM on table"); err != nil {
		return "", "", err
	}
	return ns, t, nil
}
