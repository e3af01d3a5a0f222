package exec

import (
	"context"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakesql/lakesql/planner"
)

// A join is a row stage (hash_aggregate_parallel.go) once its build side is
// read, when the rows a probe batch yields depend on that batch and the
// build side only: not when it remembers which build rows matched (a build
// side an outer, semi or anti join keeps), nor when its condition runs a
// subquery. Each worker then probes with a fork of its own.

func (j *join) source() Operator {
	_, probe := j.sides()
	return probe
}

func (j *join) concurrent() bool {
	buildPreserved, _ := j.preserved()
	if buildPreserved || j.leftOnly() && j.buildLeft || j.build == nil {
		return false
	}
	if hm, ok := j.match.(*hashMatcher); ok && slices.ContainsFunc(hm.probeKeys, planner.HasSubquery) {
		return false
	}
	return j.cond == nil || !planner.HasSubquery(j.cond)
}

// pending reports whether j holds rows of a probe batch it has not yet
// passed on: the stages above it can only be split at a batch boundary.
func (j *join) pending() bool {
	if j.probe == nil {
		return false
	}
	_, probePreserved := j.preserved()
	return !j.probeExhausted || probePreserved || j.leftOnly()
}

// fork returns a join over the same build side that probes on its own.
func (j *join) fork() rowStage {
	if j.probe != nil { // exhausted: pending was false
		j.probe.Release()
		j.probe = nil
	}
	return &join{
		typ: j.typ, left: j.left, right: j.right, buildLeft: j.buildLeft,
		cond: j.cond, condCols: j.condCols, condOver: j.condOver, condSchema: j.condSchema,
		match: j.match.fork(), keep: j.keep, schema: j.schema, joined: j.joined, build: j.build,
	}
}

// run joins one probe batch, as Next does, handing emit each batch of the
// result as it is made: a probe batch whose rows match many build rows
// makes many batches, which are not held all at once.
func (j *join) run(ctx context.Context, batch arrow.RecordBatch, emit func(arrow.RecordBatch) error) error {
	if batch.NumRows() == 0 {
		return nil
	}
	batch.Retain()
	j.probe, j.probeExhausted = batch, false
	j.probeMatched = make([]bool, batch.NumRows())
	defer func() {
		j.probe.Release()
		j.probe = nil
	}()
	if err := j.match.setProbe(ctx, batch); err != nil {
		return err
	}
	for !j.probeExhausted {
		j.pairs.reset()
		j.probeExhausted = j.match.next(&j.pairs, BatchSize)
		out, err := j.matched(ctx, &j.pairs)
		if err := emitOne(out, err, emit); err != nil {
			return err
		}
	}
	out, err := j.unmatchedProbe(ctx)
	return emitOne(out, err, emit)
}
