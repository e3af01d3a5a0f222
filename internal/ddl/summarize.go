package ddl

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakesql/lakesql/internal/engine"
	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/sql"
	"github.com/lakesql/lakesql/value"
)

// summaryStats are the statistics SUMMARIZE computes per column, in the
// order of the aggregates of the summary query.
var summaryStats = []string{"min", "max", "approx_unique", "avg", "std", "q25", "q50", "q75", "count_value"}

// summarySchema is DuckDB's SUMMARIZE output. min, max, avg, std and the
// quartiles are text, as each column has its own type.
var summarySchema = arrow.NewSchema([]arrow.Field{
	{Name: "column_name", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "column_type", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "min", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "max", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "approx_unique", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	{Name: "avg", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "std", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "q25", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "q50", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "q75", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "count", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	{Name: "null_percentage", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
}, nil)

// Summarize is SUMMARIZE of a table, file, table function or query: a row
// per column with its min, max, distinct count (exact: approx_unique is
// count(DISTINCT)), mean, sample standard deviation, quartiles (exact,
// percentile_disc), row count and percentage of NULLs. The statistics come
// from one aggregation over the query; a statistic a type has no meaning
// for (the mean of a string) is NULL.
func Summarize(ctx context.Context, s *engine.Session, st *sql.Summarize) (*engine.Result, error) {
	plan, err := planner.BindQuery(s.Context(ctx), s, st.Query)
	if err != nil {
		return nil, err
	}
	cols := plan.Schema()
	q, err := summaryQuery(st.Query, cols)
	if err != nil {
		return nil, err
	}
	res, err := s.Query(ctx, q)
	if err != nil {
		return nil, err
	}
	defer res.Close()
	stats, err := res.Next(ctx)
	if err != nil {
		return nil, err
	}
	if stats == nil {
		return nil, fmt.Errorf("SUMMARIZE: the aggregation returned no row")
	}
	defer stats.Release()
	b := array.NewRecordBuilder(memory.DefaultAllocator, summarySchema)
	defer b.Release()
	total := stats.Column(len(cols) * len(summaryStats)).(*array.Int64).Value(0)
	for i, c := range cols {
		b.Field(0).(*array.StringBuilder).Append(c.Name)
		b.Field(1).(*array.StringBuilder).Append(planner.TypeString(c.T))
		at := func(k int) arrow.Array { return stats.Column(i*len(summaryStats) + k) }
		for k, field := range []int{2, 3, -1, 5, 6, 7, 8, 9} {
			if field < 0 {
				appendCount(b.Field(4), at(k))
				continue
			}
			if col := at(k); value.IsNull(col, 0) {
				b.Field(field).AppendNull()
			} else {
				b.Field(field).(*array.StringBuilder).Append(value.Format(col, 0))
			}
		}
		b.Field(10).(*array.Int64Builder).Append(total)
		nonNull := stats.Column(i*len(summaryStats) + 8).(*array.Int64).Value(0)
		if total == 0 {
			b.Field(11).AppendNull()
		} else {
			pct := 100 * float64(total-nonNull) / float64(total)
			b.Field(11).(*array.Float64Builder).Append(math.Round(pct*100) / 100)
		}
	}
	batch := b.NewRecordBatch()
	defer batch.Release()
	return engine.BatchResult(summarySchema, batch), nil
}

func appendCount(b array.Builder, col arrow.Array) {
	if value.IsNull(col, 0) {
		b.AppendNull()
		return
	}
	b.(*array.Int64Builder).Append(col.(*array.Int64).Value(0))
}

// summaryQuery is SELECT <the summaryStats of each column>, count(*) FROM
// (query) AS summarized(c0, c1, …): the columns are renamed so that any
// name, even a duplicate one, can be referred to.
func summaryQuery(q *sql.Query, cols []planner.Column) (*sql.Query, error) {
	var items, names []string
	for i, c := range cols {
		col := fmt.Sprintf("c%d", i)
		names = append(names, col)
		ordered, numeric := summaryKinds(c.T)
		stat := func(ok bool, expr string) {
			if !ok {
				expr = "NULL"
			}
			items = append(items, expr)
		}
		stat(ordered, "min("+col+")")
		stat(ordered, "max("+col+")")
		stat(ordered, "count(DISTINCT "+col+")")
		stat(numeric, "avg("+col+")")
		stat(numeric, "stddev_samp("+col+")")
		for _, f := range []string{"0.25", "0.5", "0.75"} {
			stat(ordered && c.T.ID() != arrow.STRING && c.T.ID() != arrow.BOOL, "percentile_disc("+col+", "+f+")")
		}
		stat(true, "count("+col+")")
	}
	items = append(items, "count(*)")
	text := fmt.Sprintf("SELECT %s FROM (%s) AS summarized(%s)", strings.Join(items, ", "), sql.FormatQuery(q), strings.Join(names, ", "))
	stmt, err := sql.ParseOne(text)
	if err != nil {
		return nil, fmt.Errorf("SUMMARIZE: %v", err)
	}
	return stmt.(*sql.QueryStmt).Query, nil
}

// summaryKinds says whether a type's values can be ordered (min, max,
// distinct count, quartiles) and averaged.
func summaryKinds(t arrow.DataType) (ordered, numeric bool) {
	numeric = planner.IsNumeric(t)
	switch t.ID() {
	case arrow.STRING, arrow.BOOL, arrow.DATE32, arrow.TIMESTAMP, arrow.TIME64:
		return true, false
	}
	return numeric, numeric
}
