package exec

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakesql/lakesql/planner"
)

// A window whose input fills its share of the memory limit spills it by
// the PARTITION BY keys every call has in common (key_spill.go): each
// call's partitions then lie wholly in one file, and the window is
// computed file by file, spilling again at the next level if one does not
// fit. Rows come out partition file by partition file rather than in input
// order (SQL promises no order without ORDER BY). A window with a call
// without PARTITION BY, or whose calls share no key, cannot spill: it fails
// with checkMemory's one line near the limit.

// newInputSpill returns the spill of w's input by the PARTITION BY keys of
// all its calls.
func (w *windowOp) newInputSpill() *keySpill {
	keys := commonPartitionBy(w.calls)
	var hasher *keyHasher
	if len(keys) > 0 {
		hasher = newKeyHasher(keys, keys)
	} else {
		keys = nil
	}
	return newKeySpill("a window function", w.input.Schema(), keys, hasher, w.spillLevel)
}

// commonPartitionBy is the PARTITION BY keys every call has.
func commonPartitionBy(calls []*planner.WindowCall) []planner.Expr {
	var common []planner.Expr
	for _, k := range calls[0].PartitionBy {
		inAll := true
		for _, c := range calls[1:] {
			found := false
			for _, o := range c.PartitionBy {
				found = found || o.String() == k.String()
			}
			inAll = inAll && found
		}
		if inAll {
			common = append(common, k)
		}
	}
	return common
}

// windowGrace computes a window whose input spilled, file by file.
type windowGrace struct {
	w     *windowOp
	parts *keyPartitions
	part  int       // the next partition
	cur   *windowOp // the current partition's window
}

// next returns the next batch of rows with their window results; nil at
// the end.
func (g *windowGrace) next(ctx context.Context) (arrow.RecordBatch, error) {
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
		for g.part < spillPartitions && g.parts.files[g.part] == nil {
			g.part++
		}
		if g.part == spillPartitions {
			return nil, nil
		}
		g.cur = &windowOp{input: g.parts.scan(g.part), calls: g.w.calls, schema: g.w.schema, spillLevel: g.w.spillLevel + 1}
		g.part++
		if err := g.cur.Open(ctx); err != nil {
			return nil, err
		}
	}
}

func (g *windowGrace) close() {
	if g.cur != nil {
		g.cur.Close()
	}
	g.parts.close()
}
