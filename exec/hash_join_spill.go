package exec

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
)

// A hash join whose build side fills its share of the memory limit turns
// into a grace hash join: the build rows read so far, and every build row
// after them, are written to spillPartitions files by a hash of their join
// keys (key_spill.go); then the probe side is written out the same way;
// then each partition is joined on its own, by a join of the same type over
// the two files. A row can only match rows of its own partition, so each
// partition's join finds all of a row's matches, and a preserved row
// (outer, semi and anti joins) that matched nothing in its partition
// matched nothing at all. Rows with a NULL key never match: they go to
// partition 0, where outer and anti joins still emit them. A partition
// whose build side does not fit either spills again, into partitions of the
// next 4 bits of the hash; past spillLevels a join fails with checkMemory's
// one line.

// joinSpillName names a hash join in spill messages.
const joinSpillName = "the build side of a hash join"

// newBuildSpill returns the spill of j's build side; a nested-loop join's
// cannot spill.
func (j *join) newBuildSpill() *keySpill {
	build, _ := j.sides()
	hm, ok := j.match.(*hashMatcher)
	if !ok {
		return newKeySpill(joinSpillName, build.Schema(), nil, nil, j.spillLevel)
	}
	return newKeySpill(joinSpillName, build.Schema(), hm.buildKeys, newKeyHasher(hm.buildKeys, hm.probeKeys), j.spillLevel)
}

// graceJoin runs a join whose build side spilled, partition by partition.
type graceJoin struct {
	j            *join
	build, probe *keyPartitions
	part         int   // the next partition to join
	cur          *join // the current partition's join
}

func newGraceJoin(j *join, s *keySpill) *graceJoin {
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
			b, done, err := nextOrClose(ctx, g.cur)
			if done {
				g.cur = nil
			}
			if err != nil || !done {
				return b, err
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
	hasher := newKeyHasher(hm.buildKeys, hm.probeKeys)
	g.probe = &keyPartitions{what: "the probe side of a hash join", schema: probeOp.Schema()}
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		b, err := probeOp.Next(ctx)
		if err != nil || b == nil {
			return err
		}
		err = g.probe.write(ctx, hm.probeKeys, hasher, g.j.spillLevel, b)
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
