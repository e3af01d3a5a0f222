package demo

import (
	"cmp"
	"context"
	"fmt"
	"runtime"
	"sync"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/table"

	"github.com/lakesql/lakesql/catalog"
	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/storage"
)

// Names of the demo warehouse's namespace and tables, as in the seed tutorial.
const (
	Namespace    = "tutorial"
	EventsTable  = "retail_clickstream_events"
	SummaryTable = "retail_daily_traffic_summary"
)

// Build creates the demo warehouse: namespace tutorial with the Oleander
// retail clickstream (unpartitioned, as the tutorial starts) and its daily
// traffic summary. Days are generated and written in parallel, each worker
// writing a contiguous range of days to its own files, so memory stays
// bounded by a few batches per worker; each table gets one append snapshot.
func Build(ctx context.Context, opts Options) error {
	if opts.Days < 0 || opts.EventsPerDay < 0 {
		return fmt.Errorf("demo: --days and --events-per-day must not be negative")
	}
	opts = opts.withDefaults()
	wh, err := catalog.OpenConfig(ctx, catalog.Config{Name: cmp.Or(opts.Catalog, "lakesql"), Warehouse: opts.Warehouse, URI: opts.CatalogURI, Props: opts.CatalogProps})
	if err != nil {
		return err
	}
	defer wh.Close()
	if err := wh.CreateNamespace(ctx, Namespace, true); err != nil {
		return err
	}
	for _, name := range []string{EventsTable, SummaryTable} {
		if exists, err := wh.TableExists(ctx, Namespace, name); err != nil {
			return err
		} else if exists {
			return fmt.Errorf("demo: table %s.%s already exists in %s; remove the folder or pick another --warehouse", Namespace, name, wh.Dir())
		}
	}
	events, err := createDemoTable(ctx, wh, EventsTable, demoEventsSchema)
	if err != nil {
		return err
	}
	summary, err := createDemoTable(ctx, wh, SummaryTable, demoSummarySchema)
	if err != nil {
		return err
	}
	start := time.Now()
	eventFiles, summaryBatches, err := writeDemoEvents(ctx, wh, events, opts)
	if err != nil {
		return err
	}
	defer func() {
		for _, b := range summaryBatches {
			b.Release()
		}
	}()
	if err := storage.CommitAppend(ctx, events, eventFiles); err != nil {
		return err
	}
	next := 0
	if _, err := storage.Append(ctx, summary, wh.FS(), fieldTypes(demoSummarySchema), func() (arrow.RecordBatch, error) {
		if next == len(summaryBatches) {
			return nil, nil
		}
		next++
		summaryBatches[next-1].Retain()
		return summaryBatches[next-1], nil
	}); err != nil {
		return err
	}
	if opts.Progress != nil {
		fmt.Fprintf(opts.Progress, "demo: %d events over %d days in %d files, written in %s\n",
			int64(opts.Days)*int64(opts.EventsPerDay), opts.Days, len(eventFiles), time.Since(start).Round(time.Millisecond))
	}
	return nil
}

func createDemoTable(ctx context.Context, wh *catalog.Warehouse, name string, schema *arrow.Schema) (*table.Table, error) {
	fields := make([]iceberg.NestedField, schema.NumFields())
	for i, f := range schema.Fields() {
		t, err := planner.IcebergTypeOf(f.Type)
		if err != nil {
			return nil, err
		}
		fields[i] = iceberg.NestedField{ID: i + 1, Name: f.Name, Type: t, Required: !f.Nullable}
	}
	return wh.CreateTable(ctx, Namespace, name, iceberg.NewSchema(0, fields...), *iceberg.UnpartitionedSpec, nil)
}

func fieldTypes(schema *arrow.Schema) []arrow.DataType {
	types := make([]arrow.DataType, schema.NumFields())
	for i, f := range schema.Fields() {
		types[i] = f.Type
	}
	return types
}

// writeDemoEvents writes every day's events with one table writer per worker
// and returns the data files and the days' summary batches, in day order.
func writeDemoEvents(ctx context.Context, wh *catalog.Warehouse, tbl *table.Table, opts Options) ([]iceberg.DataFile, []arrow.RecordBatch, error) {
	workers := max(1, min(runtime.GOMAXPROCS(0), opts.Days))
	summaries := make([]arrow.RecordBatch, opts.Days)
	files := make([][]iceberg.DataFile, workers)
	writers := make([]*storage.TableWriter, workers)
	errs := make([]error, workers)
	var done sync.WaitGroup
	var progress sync.Mutex
	daysDone := 0
	for w := range workers {
		done.Add(1)
		go func() {
			defer done.Done()
			writer, err := storage.NewTableWriter(tbl, wh.FS(), fieldTypes(demoEventsSchema))
			if err != nil {
				errs[w] = err
				return
			}
			writers[w] = writer
			for d := w * opts.Days / workers; d < (w+1)*opts.Days/workers; d++ {
				summaries[d], err = generateDemoDay(opts, d, 64<<10, memory.DefaultAllocator, func(b arrow.RecordBatch) error {
					defer b.Release()
					return writer.Write(ctx, b)
				})
				if err != nil {
					errs[w] = err
					return
				}
				progress.Lock()
				daysDone++
				if opts.Progress != nil && (daysDone%30 == 0 || daysDone == opts.Days) {
					fmt.Fprintf(opts.Progress, "demo: %d/%d days\n", daysDone, opts.Days)
				}
				progress.Unlock()
			}
			files[w], errs[w] = writer.Close()
		}()
	}
	done.Wait()
	var all []iceberg.DataFile
	for w := range workers {
		if errs[w] != nil {
			for _, writer := range writers {
				if writer != nil {
					writer.Abort()
				}
			}
			return nil, nil, errs[w]
		}
		all = append(all, files[w]...)
	}
	return all, summaries, nil
}
