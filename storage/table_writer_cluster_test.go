package storage

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/catalog"
	"github.com/apache/iceberg-go/catalog/hadoop"
	icebergio "github.com/apache/iceberg-go/io"
	"github.com/apache/iceberg-go/table"
)

var clusterSchema = iceberg.NewSchema(0,
	iceberg.NestedField{ID: 1, Name: "id", Type: iceberg.PrimitiveTypes.Int64, Required: true},
	iceberg.NestedField{ID: 2, Name: "day", Type: iceberg.PrimitiveTypes.Date},
	iceberg.NestedField{ID: 3, Name: "cat", Type: iceberg.PrimitiveTypes.String},
)

var clusterTypes = []arrow.DataType{arrow.PrimitiveTypes.Int64, arrow.FixedWidthTypes.Date32, arrow.BinaryTypes.String}

func clusterTable(t *testing.T, field iceberg.PartitionField, props iceberg.Properties, order table.SortOrder) *table.Table {
	t.Helper()
	cat, err := hadoop.NewCatalog("test", t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := cat.CreateNamespace(ctx, table.Identifier{"db"}, nil); err != nil {
		t.Fatal(err)
	}
	spec := iceberg.NewPartitionSpec(field)
	tbl, err := cat.CreateTable(ctx, table.Identifier{"db", "t"}, clusterSchema,
		catalog.WithPartitionSpec(&spec), catalog.WithProperties(props), catalog.WithSortOrder(order))
	if err != nil {
		t.Fatal(err)
	}
	return tbl
}

// shuffledBatches makes n rows in random order: id i, day i % 800, cat i % 100.
func shuffledBatches(n int) []arrow.RecordBatch {
	perm := rand.New(rand.NewPCG(1, 2)).Perm(n)
	fields := []arrow.Field{{Name: "id", Type: clusterTypes[0]}, {Name: "day", Type: clusterTypes[1], Nullable: true}, {Name: "cat", Type: clusterTypes[2], Nullable: true}}
	var out []arrow.RecordBatch
	for start := 0; start < n; start += 4096 {
		b := array.NewRecordBuilder(memory.DefaultAllocator, arrow.NewSchema(fields, nil))
		for _, i := range perm[start:min(n, start+4096)] {
			b.Field(0).(*array.Int64Builder).Append(int64(i))
			b.Field(1).(*array.Date32Builder).Append(arrow.Date32(20_000 + i%800))
			b.Field(2).(*array.StringBuilder).Append(fmt.Sprintf("c%02d", i%100))
		}
		out = append(out, b.NewRecordBatch())
		b.Release()
	}
	return out
}

// writeClustered writes the batches with a small memory budget, so that
// the rows are spilled many times, and returns the data files.
func writeClustered(t *testing.T, tbl *table.Table, batches []arrow.RecordBatch) []iceberg.DataFile {
	t.Helper()
	w, err := NewTableWriter(tbl, icebergio.LocalFS{}, clusterTypes)
	if err != nil {
		t.Fatal(err)
	}
	spill := t.TempDir()
	w.SetWriteMemory(512<<10, spill)
	i := 0
	_, files, err := w.WriteAll(context.Background(), func() (arrow.RecordBatch, error) {
		if i == len(batches) {
			return nil, nil
		}
		i++
		batches[i-1].Retain()
		return batches[i-1], nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if left, _ := os.ReadDir(spill); len(left) != 0 {
		t.Errorf("%d spill files left behind", len(left))
	}
	return files
}

func TestClusteredWriteOneFilePerPartition(t *testing.T) {
	const n = 60_000
	batches := shuffledBatches(n)
	defer func() {
		for _, b := range batches {
			b.Release()
		}
	}()
	for _, c := range []struct {
		field      iceberg.PartitionField
		partitions int
	}{
		{iceberg.PartitionField{SourceIDs: []int{1}, FieldID: 1000, Name: "id_bucket", Transform: iceberg.BucketTransform{NumBuckets: 64}}, 64},
		{iceberg.PartitionField{SourceIDs: []int{3}, FieldID: 1000, Name: "cat", Transform: iceberg.IdentityTransform{}}, 100},
		{iceberg.PartitionField{SourceIDs: []int{2}, FieldID: 1000, Name: "day", Transform: iceberg.DayTransform{}}, 800},
	} {
		t.Run(c.field.Name, func(t *testing.T) {
			files := writeClustered(t, clusterTable(t, c.field, nil, table.UnsortedSortOrder), batches)
			if len(files) != c.partitions {
				t.Errorf("%d files for %d partitions", len(files), c.partitions)
			}
			seen := map[string]bool{}
			var rows int64
			for _, f := range files {
				key := fmt.Sprint(f.Partition())
				if seen[key] {
					t.Errorf("partition %s has several files", key)
				}
				seen[key] = true
				rows += f.Count()
			}
			if rows != n {
				t.Errorf("%d rows written, want %d", rows, n)
			}
		})
	}
}

// With a sort order, each file's rows follow it; with distribution mode
// none, rows are written as they come (many files per partition).
func TestClusteredWriteSortOrderAndNone(t *testing.T) {
	batches := shuffledBatches(20_000)
	defer func() {
		for _, b := range batches {
			b.Release()
		}
	}()
	field := iceberg.PartitionField{SourceIDs: []int{3}, FieldID: 1000, Name: "cat", Transform: iceberg.IdentityTransform{}}
	order, err := table.NewSortOrder(1, []table.SortField{{SourceIDs: []int{1}, Transform: iceberg.IdentityTransform{}, Direction: table.SortDESC, NullOrder: table.NullsLast}})
	if err != nil {
		t.Fatal(err)
	}
	tbl := clusterTable(t, field, nil, order)
	for _, f := range writeClustered(t, tbl, batches) {
		pf := openFixture(t, f.FilePath())
		ids := readAll(t, pf, []ReadColumn{{FieldID: 1, Name: "id", Type: arrow.PrimitiveTypes.Int64}}, 8192, memory.DefaultAllocator)
		vals := slices.Clone(ids[0].(*array.Int64).Int64Values())
		releaseAll(ids)
		if !slices.IsSortedFunc(vals, func(a, b int64) int { return int(b - a) }) {
			t.Fatalf("%s: ids not in descending order", f.FilePath())
		}
	}
	none := clusterTable(t, field, iceberg.Properties{"write.distribution-mode": "none"}, table.UnsortedSortOrder)
	if files := writeClustered(t, none, batches); len(files) <= 100 {
		t.Errorf("distribution mode none wrote %d files for 100 partitions of shuffled rows, want the unclustered many", len(files))
	}
	bad := clusterTable(t, field, iceberg.Properties{"write.distribution-mode": "sideways"}, table.UnsortedSortOrder)
	if _, err := NewTableWriter(bad, icebergio.LocalFS{}, clusterTypes); err == nil {
		t.Error("distribution mode sideways accepted")
	}
}

// SetSortOrder with a small target size range-partitions each partition's
// rows into files: their id ranges do not overlap.
func TestClusteredWriteRangesFiles(t *testing.T) {
	batches := shuffledBatches(20_000)
	defer func() {
		for _, b := range batches {
			b.Release()
		}
	}()
	field := iceberg.PartitionField{SourceIDs: []int{1}, FieldID: 1000, Name: "id_bucket", Transform: iceberg.BucketTransform{NumBuckets: 4}}
	tbl := clusterTable(t, field, iceberg.Properties{"write.distribution-mode": "none"}, table.UnsortedSortOrder)
	order, err := table.NewSortOrder(1, []table.SortField{{SourceIDs: []int{1}, Transform: iceberg.IdentityTransform{}, Direction: table.SortASC, NullOrder: table.NullsFirst}})
	if err != nil {
		t.Fatal(err)
	}
	w, err := NewTableWriter(tbl, icebergio.LocalFS{}, clusterTypes)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.SetSortOrder(order); err != nil {
		t.Fatal(err)
	}
	w.SetTargetFileSize(1000)
	for _, b := range batches {
		if err := w.Write(context.Background(), b); err != nil {
			t.Fatal(err)
		}
	}
	files, err := w.Close()
	if err != nil {
		t.Fatal(err)
	}
	if len(files) <= 4 {
		t.Fatalf("%d files, want several per partition at a 1000-byte target", len(files))
	}
	last := map[string]int64{}
	for _, f := range files {
		pf := openFixture(t, f.FilePath())
		ids := readAll(t, pf, []ReadColumn{{FieldID: 1, Name: "id", Type: arrow.PrimitiveTypes.Int64}}, 8192, memory.DefaultAllocator)
		vals := slices.Clone(ids[0].(*array.Int64).Int64Values())
		releaseAll(ids)
		key := fmt.Sprint(f.Partition())
		if prev, ok := last[key]; (ok && vals[0] <= prev) || !slices.IsSorted(vals) {
			t.Fatalf("%s: ids %d..%d overlap the partition's previous file (up to %d) or are unsorted", f.FilePath(), vals[0], vals[len(vals)-1], prev)
		}
		last[key] = vals[len(vals)-1]
	}
}
