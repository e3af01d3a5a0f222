package exec

import (
	"context"
	"fmt"
	"hash/maphash"
	"sync"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/ipc"

	"github.com/lakesql/lakesql/planner"
)

// An operator that must see all rows of a key together (a hash join's build
// side, a window's partitions) spills by writing its input to
// spillPartitions files by a hash of the key: rows of one key land in one
// file, which is then processed on its own. Rows with a NULL key go to
// partition 0. Each level of spilling uses the next 4 bits of the hash.

// minRowsBeforeSpill is how many rows an input takes before it may spill,
// so that a small one is not spilled because memory is short for other
// reasons.
const minRowsBeforeSpill = 1 << 14

// keySpill decides, as an operator's input is read, when it spills, and
// takes its rows once it does. Parallel readers share it.
type keySpill struct {
	what   string         // the operator, for messages
	keys   []planner.Expr // over the input's rows; nil when it cannot spill
	hasher *keyHasher
	level  int
	rows   atomic.Int64
	on     atomic.Bool
	mu     sync.Mutex // guards parts
	parts  *keyPartitions
}

// newKeySpill returns the spill of an input of schema by keys, hashed by
// hasher, at level; it cannot spill when keys is nil or past spillLevels.
func newKeySpill(what string, schema *arrow.Schema, keys []planner.Expr, hasher *keyHasher, level int) *keySpill {
	if level >= spillLevels {
		keys = nil
	}
	return &keySpill{what: what, keys: keys, hasher: hasher, level: level, parts: &keyPartitions{what: what, schema: schema}}
}

// check is called after each input batch is added to kept (the batches a
// reader holds): it returns kept as the reader is to keep holding it, all
// written out once the input spills. An input that cannot spill fails
// with checkMemory's one line instead (nil: a nested-loop join's build
// side).
func (s *keySpill) check(ctx context.Context, kept []arrow.RecordBatch) ([]arrow.RecordBatch, error) {
	switch {
	case s == nil:
		return kept, checkMemory(ctx, "the build side of a hash join")
	case s.keys == nil:
		return kept, checkMemory(ctx, s.what)
	}
	rows := s.rows.Add(kept[len(kept)-1].NumRows())
	if !s.on.Load() && (rows < minRowsBeforeSpill || !memoryPressure(ctx)) {
		return kept, nil
	}
	s.on.Store(true)
	return kept[:0], s.flush(ctx, kept)
}

// spilling reports whether the input spilled.
func (s *keySpill) spilling() bool { return s != nil && s.on.Load() }

// flush writes batches to the partitions and releases them.
func (s *keySpill) flush(ctx context.Context, batches []arrow.RecordBatch) error {
	defer releaseBatches(batches)
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, b := range batches {
		if err := s.parts.write(ctx, s.keys, s.hasher, s.level, b); err != nil {
			return err
		}
	}
	return nil
}

// keyHasher hashes keys so that equal keys of two inputs (a join's sides)
// hash alike: a single integer key on both as its int64 value (they may
// differ in width), other keys by their encoding (encodeKeys), whose types
// a join requires to be pairwise the same.
type keyHasher struct {
	ints bool
}

// keyHashSeed seeds the key hashes of the process.
var keyHashSeed = maphash.MakeSeed()

// newKeyHasher returns the hasher of keys a and b, keys of two inputs that
// are compared for equality (the same keys for one input).
func newKeyHasher(a, b []planner.Expr) *keyHasher {
	return &keyHasher{ints: len(a) == 1 && isIntKind(a[0].Type()) && isIntKind(b[0].Type())}
}

// hash returns the hash of keys for each row of b, and whether a key is
// NULL.
func (h *keyHasher) hash(ctx context.Context, keys []planner.Expr, b arrow.RecordBatch) ([]uint64, []bool, error) {
	hashes := make([]uint64, b.NumRows())
	if h.ints {
		vals, isNull, err := evalIntKey(ctx, keys[0], b, nil, nil)
		if err != nil {
			return nil, nil, err
		}
		for i, v := range vals {
			hashes[i] = mix64(uint64(v))
		}
		return hashes, isNull, nil
	}
	enc, err := evalKeys(ctx, keys, b)
	if err != nil {
		return nil, nil, err
	}
	for i := range hashes {
		hashes[i] = maphash.Bytes(keyHashSeed, enc.key(i))
	}
	return hashes, enc.hasNull, nil
}

// mix64 is SplitMix64's finalizer: every bit of v moves the high bits that
// pick a partition.
func mix64(v uint64) uint64 {
	v ^= v >> 30
	v *= 0xbf58476d1ce4e5b9
	v ^= v >> 27
	v *= 0x94d049bb133111eb
	return v ^ v>>31
}

// keyPartitions are an input's spill files, by partition.
type keyPartitions struct {
	what   string // the operator, for messages
	schema *arrow.Schema
	files  [spillPartitions]*spillFile
}

// write appends the rows of b to the partitions the hashes of their keys
// pick at level.
func (p *keyPartitions) write(ctx context.Context, keys []planner.Expr, h *keyHasher, level int, b arrow.RecordBatch) error {
	if b.NumRows() == 0 {
		return nil
	}
	hashes, isNull, err := h.hash(ctx, keys, b)
	if err != nil {
		return err
	}
	var byPart [spillPartitions][]int32
	shift := 60 - 4*level
	for r, hv := range hashes {
		part := 0
		if !isNull[r] {
			part = int(hv >> shift & (spillPartitions - 1))
		}
		byPart[part] = append(byPart[part], int32(r))
	}
	mem := allocator(ctx)
	for part, rows := range byPart {
		if len(rows) == 0 {
			continue
		}
		if p.files[part] == nil {
			if p.files[part], err = newSpillFile(p.schema, mem, p.what); err != nil {
				return err
			}
		}
		taken, err := takeBatch(ctx, p.schema, b.Columns(), rows, mem)
		if err != nil {
			return err
		}
		err = p.files[part].write(taken)
		taken.Release()
		if err != nil {
			return err
		}
	}
	return nil
}

// scan returns an operator reading partition part back (no rows when none
// was written), which owns the file from then on.
func (p *keyPartitions) scan(part int) Operator {
	f := p.files[part]
	p.files[part] = nil
	if f == nil {
		return NewBatches(p.schema, nil)
	}
	return &spillScan{schema: p.schema, file: f}
}

func (p *keyPartitions) close() {
	for i, f := range p.files {
		if f != nil {
			f.close()
			p.files[i] = nil
		}
	}
}

// spillScan reads a spill file back as an operator; Close ends the file.
type spillScan struct {
	schema *arrow.Schema
	file   *spillFile
	r      *ipc.Reader
}

func (s *spillScan) Schema() *arrow.Schema { return s.schema }

func (s *spillScan) Open(ctx context.Context) error {
	r, err := s.file.reader(allocator(ctx))
	s.r = r
	return err
}

func (s *spillScan) Next(context.Context) (arrow.RecordBatch, error) {
	if s.r.Next() {
		b := s.r.RecordBatch()
		b.Retain()
		return b, nil
	}
	if err := s.r.Err(); err != nil {
		return nil, fmt.Errorf("%s: reading back spilled rows: %w", s.file.what, err)
	}
	return nil, nil
}

func (s *spillScan) Close() error {
	if s.r != nil {
		s.r.Release()
		s.r = nil
	}
	s.file.close()
	return nil
}

// nextOrClose returns the next batch of op, which reads one spilled
// partition; at op's end it closes op and reports done, for the caller to
// go on to the next partition.
func nextOrClose(ctx context.Context, op Operator) (b arrow.RecordBatch, done bool, err error) {
	if b, err = op.Next(ctx); err != nil || b != nil {
		return b, false, err
	}
	return nil, true, op.Close()
}
