package storage

import (
	"fmt"
	"os"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// spillRun is a local temporary Arrow IPC file holding buffered rows that
// passed the writer's memory budget, grouped by partition: batches[key]
// are the positions of that partition's record batches in the file.
type spillRun struct {
	path    string
	file    *os.File
	reader  *ipc.FileReader
	batches map[string][]int
}

// writeSpillRun writes the rows of each partition of keys, as part returns
// them, to a new temporary file in dir.
func writeSpillRun(dir string, schema *arrow.Schema, keys []string, part func(key string) (arrow.RecordBatch, error), mem memory.Allocator) (*spillRun, error) {
	f, err := os.CreateTemp(dir, "lakesql-spill-*.arrow")
	if err != nil {
		return nil, fmt.Errorf("spill buffered rows: %w", err)
	}
	run := &spillRun{path: f.Name(), file: f, batches: map[string][]int{}}
	fail := func(err error) (*spillRun, error) {
		run.remove()
		return nil, fmt.Errorf("spill buffered rows to %s: %w", run.path, err)
	}
	w, err := ipc.NewFileWriter(f, ipc.WithSchema(schema), ipc.WithAllocator(mem))
	if err != nil {
		return fail(err)
	}
	n := 0
	for _, key := range keys {
		b, err := part(key)
		if err == nil {
			err = w.Write(b)
			b.Release()
		}
		if err != nil {
			w.Close()
			return fail(err)
		}
		run.batches[key] = append(run.batches[key], n)
		n++
	}
	if err := w.Close(); err != nil {
		return fail(err)
	}
	if run.reader, err = ipc.NewFileReader(f, ipc.WithAllocator(mem)); err != nil {
		return fail(err)
	}
	return run, nil
}

// read returns batch i of the run; the caller releases it.
func (r *spillRun) read(i int) (arrow.RecordBatch, error) {
	b, err := r.reader.RecordBatchAt(i)
	if err != nil {
		return nil, fmt.Errorf("read spilled rows from %s: %w", r.path, err)
	}
	return b, nil
}

// remove closes and deletes the run's file.
func (r *spillRun) remove() {
	if r.reader != nil {
		r.reader.Close()
	}
	r.file.Close()
	os.Remove(r.path)
}
