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

// A hash join whose build side fills its share of the memory limit turns
// into a grace hash join: the build rows read so far, and every build row
// after them, are written to spillPartitions files by a hash of their join
// keys; then the probe side is written out the same way; then each
// partition is joined on its own, by a join of the same type over the two
// files. A row can only match rows of its own partition, so each
// partition's join finds all of a row's matches, and a preserved row (outer,
// semi and anti joins) that matched nothing in its partition matched
// nothing at all. Rows with a NULL key never match: they go to partition 0,
// where outer and anti joins still emit them. A partition whose build side
// does not fit either spills again, into partitions of the next 4 bits of
// the hash; past spillLevels a join fails with checkMemory's one line.

// minBuildRowsBeforeSpill is how many rows a build side takes before it may
// spill, so that a small build side is not spilled because memory is short
// for other reasons.
const minBuildRowsBeforeSpill = 1 << 14

// buildSpill decides, as a join's build side is read, when it spills, and
// takes its rows once it does. Parallel readers share it.
type buildSpill struct {
	keys  *joinHasher
	level int
	rows  atomic.Int64
	on    atomic.Bool
	mu    sync.Mutex // guards parts
	parts *joinPartitions
}

// newBuildSpill returns the spill of j's build side, or nil when j cannot
// spill: a nested-loop join, or a join already spilled spillLevels times.
func (j *join) newBuildSpill() *buildSpill {
	hm, ok := j.match.(*hashMatcher)
	if !ok || j.spillLevel >= spillLevels {
		return nil
	}
	build, _ := j.sides()
	return &buildSpill{
		keys:  newJoinHasher(hm.buildKeys, hm.probeKeys),
		level: j.spillLevel,
		parts: &joinPartitions{schema: build.Schema()},
	}
}

// check is called after each build batch is added to kept (the batches a
// reader holds): it returns kept as the reader is to keep holding it, all
// written out once the build side spills. A join that cannot spill fails
// with checkMemory's one line instead.
func (s *buildSpill) check(ctx context.Context, kept []arrow.RecordBatch) ([]arrow.RecordBatch, error) {
	if s == nil {
		return kept, checkMemory("the build side of a hash join")
	}
	rows := s.rows.Add(kept[len(kept)-1].NumRows())
	if !s.on.Load() && (rows < minBuildRowsBeforeSpill || !memoryPressure()) {
		return kept, nil
	}
	s.on.Store(true)
	return kept[:0], s.flush(ctx, kept)
}

// spilling reports whether the build side spilled.
func (s *buildSpill) spilling() bool { return s != nil && s.on.Load() }

// flush writes batches to the build partitions and releases them.
func (s *buildSpill) flush(ctx context.Context, batches []arrow.RecordBatch) error {
	defer func() {
		for _, b := range batches {
			b.Release()
		}
	}()
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, b := range batches {
		if err := s.parts.write(ctx, s.keys.build, s.keys, s.level, b); err != nil {
			return err
		}
	}
	return nil
}

// joinHasher hashes join keys so that equal keys of the two sides hash
// alike: a single integer key on both sides as its int64 value (the sides
// may differ in width), other keys by their encoding (encodeKeys), whose
// types the join requires to be pairwise the same.
type joinHasher struct {
	build, probe []planner.Expr
	ints         bool
}

// joinHashSeed seeds the key hashes of every join of the process.
var joinHashSeed = maphash.MakeSeed()

func newJoinHasher(build, probe []planner.Expr) *joinHasher {
	return &joinHasher{build: build, probe: probe,
		ints: len(build) == 1 && isIntKind(build[0].Type()) && isIntKind(probe[0].Type())}
}

// hash returns the hash of each row's keys (one side's, keys) and whether
// a key is NULL.
func (h *joinHasher) hash(ctx context.Context, keys []planner.Expr, b arrow.RecordBatch) ([]uint64, []bool, error) {
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
		hashes[i] = maphash.Bytes(joinHashSeed, enc.key(i))
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

// joinPartitions are one side's spill files, by partition.
type joinPartitions struct {
	schema *arrow.Schema
	files  [spillPartitions]*spillFile
}

// write appends the rows of b, whose join keys are keys, to the partitions
// their hashes pick at level.
func (p *joinPartitions) write(ctx context.Context, keys []planner.Expr, h *joinHasher, level int, b arrow.RecordBatch) error {
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
			if p.files[part], err = newSpillFile(p.schema, mem, "hash join"); err != nil {
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
func (p *joinPartitions) scan(part int) Operator {
	f := p.files[part]
	p.files[part] = nil
	if f == nil {
		return NewBatches(p.schema, nil)
	}
	return &spillScan{schema: p.schema, file: f}
}

func (p *joinPartitions) close() {
	for i, f := range p.files {
		if f != nil {
			f.close()
			p.files[i] = nil
		}
	}
}

// graceJoin runs a join whose build side spilled, partition by partition.
type graceJoin struct {
	j            *join
	build, probe *joinPartitions
	part         int   // the next partition to join
	cur          *join // the current partition's join
}

func newGraceJoin(j *join, s *buildSpill) *graceJoin {
	return &graceJoin{j: j, build: s.parts}
}

// next returns the next batch of joined rows; nil at the end.
func (g *graceJoin) next(ctx context.Context) (arrow.RecordBatch, error) {
	if g.probe == nil {
		if err := g.partitionProbe(ctx); err != nil {
			return nil, err
		}
	}
	for {
		if g.cur != nil {
			b, err := g.cur.Next(ctx)
			if err != nil || b != nil {
				return b, err
			}
			err = g.cur.Close()
			g.cur = nil
			if err != nil {
				return nil, err
			}
		}
		if g.part == spillPartitions {
			return nil, nil
		}
		part := g.part
		g.part++
		if g.build.files[part] == nil && g.probe.files[part] == nil {
			continue
		}
		g.cur = g.partitionJoin(part)
		if err := g.cur.Open(ctx); err != nil {
			return nil, err
		}
	}
}

// partitionProbe writes the whole probe side to its partitions.
func (g *graceJoin) partitionProbe(ctx context.Context) error {
	_, probeOp := g.j.sides()
	hm := g.j.match.(*hashMatcher)
	keys := newJoinHasher(hm.buildKeys, hm.probeKeys)
	g.probe = &joinPartitions{schema: probeOp.Schema()}
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		b, err := probeOp.Next(ctx)
		if err != nil || b == nil {
			return err
		}
		err = g.probe.write(ctx, keys.probe, keys, g.j.spillLevel, b)
		b.Release()
		if err != nil {
			return err
		}
	}
}

// partitionJoin is the join of partition part's two files: g's join over
// them, which spills at the next level if it must.
func (g *graceJoin) partitionJoin(part int) *join {
	j := g.j
	buildOp, probeOp := g.build.scan(part), g.probe.scan(part)
	left, right := probeOp, buildOp
	if j.buildLeft {
		left, right = buildOp, probeOp
	}
	hm := j.match.(*hashMatcher)
	sub := newJoin(j.typ, left, right, j.cond, j.buildLeft, j.keep, &hashMatcher{buildKeys: hm.buildKeys, probeKeys: hm.probeKeys})
	sub.spillLevel = j.spillLevel + 1
	return sub
}

func (g *graceJoin) close() error {
	var err error
	if g.cur != nil {
		err = g.cur.Close()
	}
	g.build.close()
	if g.probe != nil {
		g.probe.close()
	}
	return err
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
		return nil, fmt.Errorf("hash join: reading back spilled rows: %w", err)
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
