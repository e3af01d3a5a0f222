package testutil

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/iceberg-go"
	icecatalog "github.com/apache/iceberg-go/catalog"
	"github.com/apache/iceberg-go/catalog/hadoop"
	"github.com/apache/iceberg-go/table"
)

// IcebergGoView is what iceberg-go's own catalog and scanner see of a table:
// the metadata, manifests and Parquet files lakesql writes must mean the same
// to another Iceberg implementation.
type IcebergGoView struct {
	Rows      []string              // sorted, rendered as Rows renders them
	Spec      iceberg.PartitionSpec // the current partition spec
	Specs     int                   // partition specs in the metadata
	FileSpecs []int32               // spec ids of the planned data files, sorted, distinct
	Snapshot  int64                 // current snapshot id, 0 if none
}

// IcebergGo loads ns.name through a fresh iceberg-go Hadoop catalog on the
// warehouse folder dir and scans it, at snapshotID unless it is 0.
func IcebergGo(t testing.TB, dir, ns, name string, snapshotID int64) IcebergGoView {
	t.Helper()
	// Only reads: iceberg-go's refusal of unsafe commits on object storage
	// does not apply.
	cat, err := hadoop.NewCatalog("other", dir, iceberg.Properties{"allow-unsafe-commits": "true"})
	if err != nil {
		t.Fatal(err)
	}
	return IcebergGoFrom(t, cat, ns, name, snapshotID)
}

// IcebergGoFrom is IcebergGo through an iceberg-go catalog of any kind.
func IcebergGoFrom(t testing.TB, cat icecatalog.Catalog, ns, name string, snapshotID int64) IcebergGoView {
	t.Helper()
	ctx := context.Background()
	tbl, err := cat.LoadTable(ctx, table.Identifier{ns, name})
	if err != nil {
		t.Fatalf("iceberg-go LoadTable %s.%s: %v", ns, name, err)
	}
	var opts []table.ScanOption
	if snapshotID != 0 {
		opts = append(opts, table.WithSnapshotID(snapshotID))
	}
	view := IcebergGoView{Spec: tbl.Spec(), Specs: len(tbl.Metadata().PartitionSpecs())}
	if snap := tbl.CurrentSnapshot(); snap != nil {
		view.Snapshot = snap.SnapshotID
	}
	tasks, err := tbl.Scan(opts...).PlanFiles(ctx)
	if err != nil {
		t.Fatalf("iceberg-go PlanFiles %s.%s (snapshot %d): %v", ns, name, snapshotID, err)
	}
	for _, task := range tasks {
		if id := task.File.SpecID(); !slices.Contains(view.FileSpecs, id) {
			view.FileSpecs = append(view.FileSpecs, id)
		}
	}
	slices.Sort(view.FileSpecs)
	arrowTable, err := tbl.Scan(opts...).ToArrowTable(ctx)
	if err != nil {
		t.Fatalf("iceberg-go scan %s.%s (snapshot %d): %v", ns, name, snapshotID, err)
	}
	defer arrowTable.Release()
	reader := array.NewTableReader(arrowTable, 1024)
	defer reader.Release()
	for reader.Next() {
		view.Rows = appendRows(view.Rows, reader.RecordBatch())
	}
	slices.Sort(view.Rows)
	return view
}

// IcebergGoRows reads ns.name's current snapshot with iceberg-go and
// returns its rows, sorted.
func IcebergGoRows(t testing.TB, dir, ns, name string) []string {
	t.Helper()
	return IcebergGo(t, dir, ns, name, 0).Rows
}

// DiffRows describes briefly how two sorted row lists differ.
func DiffRows(got, want []string) string {
	var missing, extra []string
	i, j := 0, 0
	for i < len(got) || j < len(want) {
		switch {
		case j == len(want) || i < len(got) && got[i] < want[j]:
			extra = append(extra, got[i])
			i++
		case i == len(got) || want[j] < got[i]:
			missing = append(missing, want[j])
			j++
		default:
			i++
			j++
		}
	}
	head := func(rows []string) string {
		if len(rows) > 5 {
			return strings.Join(rows[:5], "\n  ") + fmt.Sprintf("\n  … and %d more", len(rows)-5)
		}
		return strings.Join(rows, "\n  ")
	}
	return fmt.Sprintf("%d rows vs %d wanted; %d missing:\n  %s\n%d unexpected:\n  %s",
		len(got), len(want), len(missing), head(missing), len(extra), head(extra))
}
