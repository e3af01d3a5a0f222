package bench

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/apache/iceberg-go"

	"github.com/lakesql/lakesql"
	"github.com/lakesql/lakesql/catalog"
	"github.com/lakesql/lakesql/storage"
)

// manyFilesTable creates a table partitioned by day(ts) whose snapshot lists
// days × filesPerDay data files with bounds, appended daysPerCommit days at a
// time as a daily pipeline would. The files do not exist: planning reads
// only manifests, which is what this measures.
func manyFilesTable(b *testing.B, days, filesPerDay, daysPerCommit int) string {
	dir := filepath.Join(b.TempDir(), "wh")
	ctx := context.Background()
	wh, err := catalog.Open(dir, nil)
	if err != nil {
		b.Fatal(err)
	}
	if err := wh.CreateNamespace(ctx, "db", false); err != nil {
		b.Fatal(err)
	}
	schema := iceberg.NewSchema(0,
		iceberg.NestedField{ID: 1, Name: "id", Type: iceberg.PrimitiveTypes.Int64, Required: true},
		iceberg.NestedField{ID: 2, Name: "ts", Type: iceberg.PrimitiveTypes.Timestamp, Required: true})
	spec := iceberg.NewPartitionSpec(iceberg.PartitionField{SourceIDs: []int{2}, FieldID: 1000, Name: "ts_day", Transform: iceberg.DayTransform{}})
	tbl, err := wh.CreateTable(ctx, "db", "t", schema, spec, nil)
	if err != nil {
		b.Fatal(err)
	}
	spec = tbl.Spec()
	start := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	var files []iceberg.DataFile
	for d := range days {
		day := start.AddDate(0, 0, d)
		for f := range filesPerDay {
			lo, _ := iceberg.TimestampLiteral(day.UnixMicro()).MarshalBinary()
			hi, _ := iceberg.TimestampLiteral(day.Add(24*time.Hour - time.Microsecond).UnixMicro()).MarshalBinary()
			idLo, _ := iceberg.Int64Literal(int64(d*filesPerDay+f) * 1000).MarshalBinary()
			idHi, _ := iceberg.Int64Literal(int64(d*filesPerDay+f)*1000 + 999).MarshalBinary()
			bld, err := iceberg.NewDataFileBuilder(spec, iceberg.EntryContentData,
				fmt.Sprintf("%s/data/ts_day=%s/%05d.parquet", tbl.Location(), day.Format("2006-01-02"), f),
				iceberg.ParquetFile, map[int]any{1000: iceberg.Date(d + int(start.Unix()/86400))}, nil, nil, 1000, 100_000)
			if err != nil {
				b.Fatal(err)
			}
			bld.ValueCounts(map[int]int64{1: 1000, 2: 1000}).NullValueCounts(map[int]int64{1: 0, 2: 0}).
				LowerBoundValues(map[int][]byte{1: idLo, 2: lo}).UpperBoundValues(map[int][]byte{1: idHi, 2: hi})
			files = append(files, bld.Build())
		}
		if (d+1)%daysPerCommit == 0 || d == days-1 {
			if err := storage.CommitAppend(ctx, tbl, files); err != nil {
				b.Fatal(err)
			}
			if tbl, err = wh.LoadTable(ctx, "db", "t"); err != nil {
				b.Fatal(err)
			}
			files = nil
		}
	}
	return dir
}

// BenchmarkPlanOneDayOf100kFiles plans (EXPLAIN, no data read) the one-day
// query over 1000 days × 100 files appended 10 days per commit: it must stay
// well under a second.
func BenchmarkPlanOneDayOf100kFiles(b *testing.B) {
	dir := manyFilesTable(b, 1000, 100, 10)
	for _, cached := range []bool{false, true} {
		b.Run(fmt.Sprintf("manifest_cache=%v", cached), func(b *testing.B) {
			s, err := lakesql.Open(context.Background(), lakesql.Options{Warehouse: dir})
			if err != nil {
				b.Fatal(err)
			}
			query := `EXPLAIN SELECT id FROM db.t WHERE ts >= TIMESTAMP '2025-06-01 00:00:00' AND ts < TIMESTAMP '2025-06-02 00:00:00'`
			if cached {
				runQuery(b, s, query)
			}
			b.ResetTimer()
			for range b.N {
				if !cached {
					s, _ = lakesql.Open(context.Background(), lakesql.Options{Warehouse: dir})
				}
				runQuery(b, s, query)
			}
		})
	}
}
