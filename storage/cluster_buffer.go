package storage

import (
	"context"
	"fmt"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/compute"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/arrow/util"
)

// DefaultWriteMemory is the default budget of rows a clustered write keeps
// in memory before spilling them to local temporary files.
const DefaultWriteMemory = 64 << 20

// clusterBuffer holds a write's rows by partition so that each partition's
// files are written one after the other from all of its rows, whatever the
// input order (Iceberg's hash and range distribution modes, done locally).
// Past budget bytes, the buffered rows are spilled to a temporary file as
// one run, grouped by partition.
type clusterBuffer struct {
	schema *arrow.Schema
	budget int64
	dir    string // "" : os.TempDir()
	mem    memory.Allocator

	parts map[string]*bufferedPartition
	held  []arrow.RecordBatch // input batches, reordered by partition, the slices point into
	bytes int64               // size of held
	runs  []*spillRun
}

type bufferedPartition struct {
	values map[int]any
	slices []arrow.RecordBatch
}

func newClusterBuffer(schema *arrow.Schema, budget int64, dir string, mem memory.Allocator) *clusterBuffer {
	return &clusterBuffer{schema: schema, budget: budget, dir: dir, mem: mem, parts: map[string]*bufferedPartition{}}
}

// add buffers a batch whose rows are grouped by groups: one take puts each
// partition's rows together, and each partition keeps a slice of the result.
func (b *clusterBuffer) add(ctx context.Context, batch arrow.RecordBatch, groups []*partitionGroup) error {
	batch = array.NewRecordBatch(b.schema, batch.Columns(), batch.NumRows())
	defer batch.Release()
	sorted := batch
	if len(groups) > 1 {
		var rows []int64
		for _, g := range groups {
			rows = append(rows, g.rows...)
		}
		idx := array.NewInt64Builder(compute.GetAllocator(ctx))
		idx.AppendValues(rows, nil)
		indices := idx.NewArray()
		idx.Release()
		out, err := compute.TakeArray(ctx, array.NewStructData(array.RecordToStructArray(batch).Data()), indices)
		indices.Release()
		if err != nil {
			return fmt.Errorf("group rows by partition: %w", err)
		}
		sorted = array.RecordFromStructArray(out.(*array.Struct), b.schema)
		out.Release()
	} else {
		sorted.Retain()
	}
	b.held = append(b.held, sorted)
	b.bytes += util.TotalRecordSize(sorted)
	var off int64
	for _, g := range groups {
		p := b.parts[g.key]
		if p == nil {
			p = &bufferedPartition{values: g.values}
			b.parts[g.key] = p
		}
		n := int64(len(g.rows))
		p.slices = append(p.slices, sorted.NewSlice(off, off+n))
		off += n
	}
	if b.bytes > b.budget {
		return b.spill()
	}
	return nil
}

// keys returns the partitions buffered or spilled, in a fixed order.
func (b *clusterBuffer) keys() []string {
	keys := make([]string, 0, len(b.parts))
	for k := range b.parts {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// inMemory concatenates a partition's buffered slices (nil when none).
func (b *clusterBuffer) inMemory(p *bufferedPartition) (arrow.RecordBatch, error) {
	if len(p.slices) == 0 {
		return nil, nil
	}
	if len(p.slices) == 1 {
		p.slices[0].Retain()
		return p.slices[0], nil
	}
	cols := make([]arrow.Array, b.schema.NumFields())
	var n int64
	for _, s := range p.slices {
		n += s.NumRows()
	}
	for i := range cols {
		parts := make([]arrow.Array, len(p.slices))
		for j, s := range p.slices {
			parts[j] = s.Column(i)
		}
		c, err := array.Concatenate(parts, b.mem)
		if err != nil {
			for _, done := range cols[:i] {
				done.Release()
			}
			return nil, fmt.Errorf("gather rows of a partition: %w", err)
		}
		cols[i] = c
	}
	out := array.NewRecordBatch(b.schema, cols, n)
	for _, c := range cols {
		c.Release()
	}
	return out, nil
}

// spill writes every buffered partition to a new run and frees the memory.
func (b *clusterBuffer) spill() error {
	var keys []string
	for _, k := range b.keys() {
		if len(b.parts[k].slices) > 0 {
			keys = append(keys, k)
		}
	}
	run, err := writeSpillRun(b.dir, b.schema, keys, func(key string) (arrow.RecordBatch, error) {
		return b.inMemory(b.parts[key])
	}, b.mem)
	if err != nil {
		return err
	}
	b.runs = append(b.runs, run)
	b.releaseMemory()
	return nil
}

func (b *clusterBuffer) releaseMemory() {
	for _, p := range b.parts {
		for _, s := range p.slices {
			s.Release()
		}
		p.slices = nil
	}
	for _, h := range b.held {
		h.Release()
	}
	b.held, b.bytes = nil, 0
}

// each calls fn for every partition, in a fixed order. next hands out the
// partition's rows one batch at a time (those of each spilled run, then
// those still in memory; nil at the end); the caller releases each.
func (b *clusterBuffer) each(fn func(key string, values map[int]any, next func() (arrow.RecordBatch, error)) error) error {
	for _, key := range b.keys() {
		p := b.parts[key]
		run, pos, memDone := 0, 0, false
		next := func() (arrow.RecordBatch, error) {
			for run < len(b.runs) {
				batches := b.runs[run].batches[key]
				if pos < len(batches) {
					pos++
					return b.runs[run].read(batches[pos-1])
				}
				run, pos = run+1, 0
			}
			if memDone {
				return nil, nil
			}
			memDone = true
			return b.inMemory(p)
		}
		if err := fn(key, p.values, next); err != nil {
			return err
		}
	}
	return nil
}

// close frees the memory and removes the spilled runs.
func (b *clusterBuffer) close() {
	b.releaseMemory()
	for _, r := range b.runs {
		r.remove()
	}
	b.runs = nil
}
