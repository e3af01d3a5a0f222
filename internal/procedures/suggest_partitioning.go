package procedures

import (
	"context"
	"fmt"
	"math"
	"math/bits"
	"slices"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/table"

	"github.com/lakesql/lakesql/exec"
	"github.com/lakesql/lakesql/internal/engine"
	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/sql"
)

// CALL system.suggest_partitioning(table => 'db.t' [, columns => array(…)]
// [, target_file_size_bytes => n] [, min_partition_size_bytes => n])
// profiles the table's data the way the seeds tell users to before they pick
// a partition key — a distinct count and a rows-per-value distribution for
// each candidate — and recommends one layout. The rules, each from the
// seeds:
//   - a partition should hold at least 1 GiB (min_partition_size_bytes;
//     Delta Lake's and Databricks' rule of thumb), or it is all small files;
//   - at most maxPartitions (10,000) partitions: beyond that, "use bucketing
//     or hash repartitioning instead";
//   - never a unique ID (every value distinct): bucket it instead;
//   - not one or two values (a boolean): they prune little or nothing;
//   - skew, the largest partition over the average, above maxSkew (5, Spark
//     AQE's skewedPartitionFactor) defeats pruning (checked before size: a
//     skewed layout stays skewed as the table grows);
//   - among the layouts that pass, a time column's finest passing grain
//     first (queries on event data filter by time), then the identity column
//     with the least skew; columns restricts the candidates to the columns
//     the user's queries filter on ("query-aligned");
//   - when nothing passes, the table is best left unpartitioned.
//
// Sizes are the data files' bytes on disk, shared out by row count; files
// are counted at the target file size (the table's
// write.target-file-size-bytes unless given). Every count is exact: one
// GROUP BY per candidate column or transform, which reads that column only.
// Bucket layouts are estimated from the column's most frequent value, since
// Iceberg's bucket hash is not a SQL function here.
func suggestPartitioning(ctx context.Context, s *engine.Session, args map[string]*planner.Literal) (*engine.Result, error) {
	tbl, name, err := procedureTable(ctx, s, args)
	if err != nil {
		return nil, err
	}
	a := advisor{s: s, tbl: tbl, name: name, minPartition: 1 << 30, target: engine.TargetFileSize(tbl)}
	if v, ok, err := int64Arg(ctx, args, "target_file_size_bytes"); err != nil {
		return nil, err
	} else if ok {
		a.target = v
	}
	if v, ok, err := int64Arg(ctx, args, "min_partition_size_bytes"); err != nil {
		return nil, err
	} else if ok {
		a.minPartition = v
	}
	if a.target < 1 || a.minPartition < 1 {
		return nil, fmt.Errorf("system.suggest_partitioning: target_file_size_bytes and min_partition_size_bytes must be positive")
	}
	cols, err := a.candidateColumns(args)
	if err != nil {
		return nil, err
	}
	if err := a.measureTable(ctx); err != nil {
		return nil, err
	}
	var layouts []layout
	if a.rows > 0 {
		for _, c := range cols {
			ls, err := a.measureColumn(ctx, c)
			if err != nil {
				return nil, err
			}
			layouts = append(layouts, ls...)
		}
	}
	return a.result(layouts), nil
}

const (
	maxPartitions = 10_000
	maxSkew       = 5.0
)

// advisor holds what every candidate is measured against.
type advisor struct {
	s                    *engine.Session
	tbl                  *table.Table
	name                 string
	target, minPartition int64
	rows, bytes          int64 // live rows; bytes of the data files
}

// layout is one candidate partition layout, measured.
type layout struct {
	column, partitionBy string
	partitionExpr       string // SQL computing the partition value of a row
	temporal            bool   // a time transform (year … hour)
	timeColumn          bool   // of a date or timestamp column
	grain               int    // finer time grains rank higher
	cardinality         int64
	nullRows            int64
	partitions          int64
	largest             int64 // rows of the largest partition
	files               int64
	estimated           bool
	verdict, reason     string
}

// candidate is a column the advisor measures.
type candidate struct {
	name string
	typ  iceberg.Type
}

// candidateColumns lists the top-level columns a table can be partitioned
// on with a transform worth having: dates, timestamps, integers, strings,
// decimals and booleans. Floating point, binary, time and nested columns
// are left out; naming one in columns is an error.
func (a *advisor) candidateColumns(args map[string]*planner.Literal) ([]candidate, error) {
	schema := a.tbl.Schema()
	var all []candidate
	for _, f := range schema.Fields() {
		if partitionable(f.Type) {
			all = append(all, candidate{f.Name, f.Type})
		}
	}
	lit, given := args["columns"]
	if !given {
		return all, nil
	}
	names, ok := lit.Value.([]*planner.Literal)
	if !ok {
		return nil, fmt.Errorf("argument columns must be an array of column names, e.g. columns => array('event_time', 'region')")
	}
	var chosen []candidate
	for _, n := range names {
		name, ok := n.Value.(string)
		if !ok {
			return nil, fmt.Errorf("argument columns must be an array of column names, e.g. columns => array('event_time', 'region')")
		}
		f, ok := schema.FindFieldByNameCaseInsensitive(name)
		if !ok {
			return nil, fmt.Errorf("table %s has no column %s", a.name, name)
		}
		if !partitionable(f.Type) {
			return nil, fmt.Errorf("column %s of %s is %s: partition on a date, timestamp, integer, string, decimal or boolean column", f.Name, a.name, strings.ToUpper(f.Type.String()))
		}
		chosen = append(chosen, candidate{f.Name, f.Type})
	}
	return chosen, nil
}

func partitionable(t iceberg.Type) bool {
	switch t.(type) {
	case iceberg.DateType, iceberg.TimestampType, iceberg.TimestampTzType, iceberg.TimestampNsType, iceberg.TimestampTzNsType,
		iceberg.Int32Type, iceberg.Int64Type, iceberg.StringType, iceberg.DecimalType, iceberg.BooleanType:
		return true
	}
	return false
}

func temporal(t iceberg.Type) bool {
	switch t.(type) {
	case iceberg.DateType, iceberg.TimestampType, iceberg.TimestampTzType, iceberg.TimestampNsType, iceberg.TimestampTzNsType:
		return true
	}
	return false
}

// tableName is the table as SQL text.
func (a *advisor) tableName() string {
	parts := strings.Split(a.name, ".")
	for i, p := range parts {
		parts[i] = sql.QuoteIdent(p)
	}
	return strings.Join(parts, ".")
}

// measureTable counts the live rows and the bytes of the data files.
func (a *advisor) measureTable(ctx context.Context) error {
	v, err := a.query(ctx, "SELECT count(*) FROM "+a.tableName())
	if err != nil {
		return err
	}
	a.rows = v[0]
	v, err = a.query(ctx, "SELECT coalesce(sum(file_size_in_bytes), 0) FROM "+a.tableName()+".files WHERE content = 0")
	if err != nil {
		return err
	}
	a.bytes = v[0]
	return nil
}

// query runs a query of one row of BIGINTs (NULL reads as 0).
func (a *advisor) query(ctx context.Context, text string) ([]int64, error) {
	st, err := sql.ParseOne(text)
	if err != nil {
		return nil, fmt.Errorf("system.suggest_partitioning: %w", err)
	}
	res, err := a.s.Query(ctx, st.(*sql.QueryStmt).Query)
	if err != nil {
		return nil, fmt.Errorf("system.suggest_partitioning on %s: %w", a.name, err)
	}
	defer res.Close()
	b, err := res.Next(ctx)
	if err != nil {
		return nil, fmt.Errorf("system.suggest_partitioning on %s: %w", a.name, err)
	}
	if b == nil {
		return nil, fmt.Errorf("system.suggest_partitioning on %s: the profile query returned no row", a.name)
	}
	defer b.Release()
	out := make([]int64, b.NumCols())
	for i, c := range b.Columns() {
		if n, ok := c.(*array.Int64); ok && n.IsValid(0) {
			out[i] = n.Value(0)
		}
	}
	return out, nil
}

// transforms are the natural partition transforms of a column: its own
// values, and for time columns the calendar grains, as SQL over the column
// that computes Iceberg's UTC partition values (epoch() is the same instant
// in every session time zone).
func transforms(c candidate) []layout {
	col := sql.QuoteIdent(c.name)
	identity := layout{column: c.name, partitionBy: col, partitionExpr: col, timeColumn: temporal(c.typ)}
	if !temporal(c.typ) {
		return []layout{identity}
	}
	date := col
	if _, isDate := c.typ.(iceberg.DateType); !isDate {
		date = "date_add(DATE '1970-01-01', CAST(floor(epoch(" + col + ") / 86400) AS INT))"
	}
	grain := func(name string, g int, expr string) layout {
		return layout{column: c.name, partitionBy: name + "(" + col + ")", partitionExpr: expr, temporal: true, timeColumn: true, grain: g}
	}
	ls := []layout{
		grain("year", 1, "year("+date+")"),
		grain("month", 2, "date_trunc('month', "+date+")"),
		grain("day", 3, date),
	}
	if date != col {
		ls = append(ls, grain("hour", 4, "floor(epoch("+col+") / 3600)"), identity)
	} else {
		ls[2].partitionBy = col // a DATE column's days are its identity partitions
	}
	return ls
}

// measureColumn measures each transform of a column with one GROUP BY:
// partitions, non-NULL values, the largest partition, NULL rows and the
// files at the target size. A column with too many values for identity
// partitioning is measured as bucket[N] too.
func (a *advisor) measureColumn(ctx context.Context, c candidate) ([]layout, error) {
	bytesPerRow := float64(a.bytes) / float64(a.rows)
	var out []layout
	var cardinality, topValue, nullRows int64
	for _, l := range transforms(c) {
		v, err := a.query(ctx, fmt.Sprintf(
			"SELECT count(*), count(k), max(n), sum(CASE WHEN k IS NULL THEN n ELSE 0 END), max(CASE WHEN k IS NOT NULL THEN n END), "+
				"sum(CAST(ceil(n * %s / %d) AS BIGINT)) FROM (SELECT %s AS k, count(*) AS n FROM %s GROUP BY 1) AS g",
			strconv.FormatFloat(bytesPerRow, 'f', -1, 64), a.target, l.partitionExpr, a.tableName()))
		if err != nil {
			return nil, err
		}
		l.partitions, l.largest, l.nullRows, l.files = v[0], v[2], v[3], v[5]
		if l.partitionExpr == sql.QuoteIdent(c.name) {
			cardinality, nullRows, topValue = v[1], v[3], v[4]
		}
		out = append(out, l)
	}
	for i := range out {
		out[i].cardinality = cardinality
	}
	// High-cardinality columns (and unique IDs) are bucketed instead.
	if _, isBool := c.typ.(iceberg.BooleanType); !temporal(c.typ) && !isBool && cardinality > 2 && (cardinality > maxPartitions || cardinality == a.rows-nullRows) {
		out = append(out, a.bucketLayout(c, cardinality, nullRows, topValue, bytesPerRow))
	}
	for i := range out {
		a.judge(&out[i])
	}
	return out, nil
}

// bucketLayout estimates bucket[N] of a high-cardinality column: N is the
// power of two that gives partitions of about min_partition_size_bytes (at
// least 2), the rows spread evenly but for the most frequent value, whose
// rows all land in one bucket.
func (a *advisor) bucketLayout(c candidate, cardinality, nullRows, topValue int64, bytesPerRow float64) layout {
	n := int64(2)
	if per := a.bytes / a.minPartition; per > 2 {
		n = int64(1) << (bits.Len64(uint64(per)) - 1)
	}
	n = min(n, max(cardinality, 1))
	nonNull := a.rows - nullRows
	even := float64(nonNull-topValue) / float64(n)
	l := layout{
		column: c.name, partitionBy: fmt.Sprintf("bucket(%d, %s)", n, sql.QuoteIdent(c.name)), estimated: true,
		cardinality: cardinality, nullRows: nullRows, partitions: n,
		largest: max(nullRows, int64(math.Ceil(float64(topValue)+even))),
		files:   n * a.filesFor(int64(math.Ceil(float64(nonNull)/float64(n))), bytesPerRow),
	}
	if nullRows > 0 {
		l.partitions++
		l.files += a.filesFor(nullRows, bytesPerRow)
	}
	return l
}

// filesFor is the files a partition of rows needs at the target size.
func (a *advisor) filesFor(rows int64, bytesPerRow float64) int64 {
	return int64(math.Ceil(float64(rows) * bytesPerRow / float64(a.target)))
}

// judge sets a layout's verdict and the reason for it.
func (a *advisor) judge(l *layout) {
	avg := a.bytes / max(l.partitions, 1)
	values := l.partitions // partition values other than NULL
	if l.nullRows > 0 {
		values--
	}
	switch {
	case !l.timeColumn && !l.estimated && l.cardinality == a.rows-l.nullRows && l.cardinality > 1:
		l.verdict = "unique id"
		l.reason = fmt.Sprintf("every value of %s is distinct (a unique ID): never partition on it; bucket it if queries look up single values", l.column)
	case values <= 1:
		l.verdict = "one value"
		l.reason = "a single partition value: it would prune nothing"
	case values == 2:
		l.verdict = "too few"
		l.reason = "two partition values, like a boolean: most queries would read both"
	case l.partitions > maxPartitions:
		l.verdict = "too many partitions"
		l.reason = fmt.Sprintf("%d partitions, over %d: the small files problem; use a coarser transform or a bucket", l.partitions, maxPartitions)
	case skew(l, a.rows) > maxSkew:
		l.verdict = "skewed"
		l.reason = fmt.Sprintf("the largest partition holds %.1f× the average: one partition would hold most of the data", skew(l, a.rows))
		if l.nullRows > 0 && l.nullRows == l.largest {
			l.reason = fmt.Sprintf("the NULL partition (%d rows) holds %.1f× the average: fill or filter the NULLs before partitioning on it", l.nullRows, skew(l, a.rows))
		}
	case avg < a.minPartition:
		l.verdict = "too small"
		l.reason = fmt.Sprintf("%s per partition on average, under the %s a partition should hold: small files", exec.FormatBytes(avg), exec.FormatBytes(a.minPartition))
	default:
		l.verdict = "good"
		l.reason = fmt.Sprintf("%d partitions of %s on average", l.partitions, exec.FormatBytes(avg))
	}
	if l.estimated {
		l.reason += " (bucket sizes estimated from the most frequent value)"
	}
}

// skew is the largest partition's rows over the average partition's.
func skew(l *layout, rows int64) float64 {
	if rows == 0 || l.partitions == 0 {
		return 1
	}
	return math.Round(float64(l.largest)/(float64(rows)/float64(l.partitions))*100) / 100
}

// recommend picks the layout to recommend: a good time grain, finest first;
// else the good identity layout with the least skew, then fewest
// partitions; else a good bucket. -1 is none: leave the table unpartitioned.
func recommend(layouts []layout, rows int64) int {
	best := -1
	rank := func(l *layout) (int, float64, int64) {
		kind := 1
		switch {
		case l.temporal:
			kind = 3
		case !l.estimated:
			kind = 2
		}
		return kind*10 + l.grain, -skew(l, rows), -l.partitions
	}
	for i := range layouts {
		l := &layouts[i]
		if l.verdict != "good" {
			continue
		}
		if best < 0 {
			best = i
			continue
		}
		k1, s1, p1 := rank(l)
		k2, s2, p2 := rank(&layouts[best])
		if k1 > k2 || k1 == k2 && (s1 > s2 || s1 == s2 && p1 > p2) {
			best = i
		}
	}
	return best
}

var suggestionSchema = arrow.NewSchema([]arrow.Field{
	{Name: "column_name", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "partition_by", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "cardinality", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	{Name: "null_rows", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	{Name: "partitions", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	{Name: "skew", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
	{Name: "avg_partition_bytes", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	{Name: "files", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	{Name: "avg_file_bytes", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	{Name: "verdict", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "reason", Type: arrow.BinaryTypes.String, Nullable: true},
}, nil)

// result is one row per layout, the recommended one first (verdict
// "recommended"), then the others in column order; the unpartitioned
// layout is a row too, recommended when no other is.
func (a *advisor) result(layouts []layout) *engine.Result {
	unpartitioned := layout{partitionBy: "(unpartitioned)", partitions: 1, largest: a.rows, files: max(1, (a.bytes+a.target-1)/a.target)}
	switch best := recommend(layouts, a.rows); {
	case a.rows == 0:
		unpartitioned.partitions, unpartitioned.files = 0, 0
		unpartitioned.verdict = "empty"
		unpartitioned.reason = fmt.Sprintf("%s has no rows: nothing to advise yet", a.name)
		layouts = []layout{unpartitioned}
	case best < 0:
		unpartitioned.verdict = "recommended"
		unpartitioned.reason = fmt.Sprintf("no layout passes (%s of data, %s per partition at least): leave %s unpartitioned and sort or z-order its files (OPTIMIZE … ZORDER BY) so file statistics prune",
			exec.FormatBytes(a.bytes), exec.FormatBytes(a.minPartition), a.name)
		layouts = append([]layout{unpartitioned}, layouts...)
	default:
		rec := layouts[best]
		rec.verdict = "recommended"
		rec.reason = fmt.Sprintf("PARTITIONED BY (%s): %s%s", rec.partitionBy, rec.reason, a.currentNote(rec))
		layouts = append([]layout{rec}, slices.Delete(layouts, best, best+1)...)
		unpartitioned.verdict = "ok"
		unpartitioned.reason = "one partition: pruning by file statistics only"
		layouts = append(layouts, unpartitioned)
	}
	b := array.NewRecordBuilder(memory.DefaultAllocator, suggestionSchema)
	defer b.Release()
	for _, l := range layouts {
		str := func(i int, v string, ok bool) {
			if ok {
				b.Field(i).(*array.StringBuilder).Append(v)
			} else {
				b.Field(i).AppendNull()
			}
		}
		num := func(i int, v int64, ok bool) {
			if ok {
				b.Field(i).(*array.Int64Builder).Append(v)
			} else {
				b.Field(i).AppendNull()
			}
		}
		str(0, l.column, l.column != "")
		str(1, l.partitionBy, true)
		num(2, l.cardinality, l.column != "")
		num(3, l.nullRows, l.column != "")
		num(4, l.partitions, true)
		if l.partitions > 0 {
			b.Field(5).(*array.Float64Builder).Append(skew(&l, a.rows))
		} else {
			b.Field(5).AppendNull()
		}
		num(6, a.bytes/max(l.partitions, 1), true)
		num(7, l.files, true)
		num(8, engine.AvgFileSize(l.files, a.bytes), true)
		str(9, l.verdict, true)
		str(10, l.reason, true)
	}
	batch := b.NewRecordBatch()
	defer batch.Release()
	return engine.BatchResult(suggestionSchema, batch)
}

// currentNote says when the recommendation is the table's current spec.
func (a *advisor) currentNote(l layout) string {
	spec := a.tbl.Spec()
	if spec.NumFields() != 1 {
		return ""
	}
	f := spec.Field(0)
	src, ok := a.tbl.Schema().FindFieldByID(f.SourceID())
	if !ok || !strings.EqualFold(src.Name, l.column) {
		return ""
	}
	_, isDate := src.Type.(iceberg.DateType)
	col := sql.QuoteIdent(src.Name)
	var want string
	switch t := f.Transform.(type) {
	case iceberg.IdentityTransform:
		want = col
	case iceberg.BucketTransform:
		want = fmt.Sprintf("bucket(%d, %s)", t.NumBuckets, col)
	case iceberg.DayTransform:
		want = "day(" + col + ")"
		if isDate { // a DATE column's days are its identity partitions
			want = col
		}
	default:
		want = t.String() + "(" + col + ")"
	}
	if want != l.partitionBy {
		return ""
	}
	return "; the table's current spec"
}
