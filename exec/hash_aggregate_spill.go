package exec

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakesql/lakesql/exec/expr"
	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/storage"
)

// An aggregation whose groups fill its share of the memory limit closes
// its state: rows of groups the state holds still fold into it, rows of new
// groups are written out, by a hash of their keys, to spillPartitions
// files (their keys and the aggregates' arguments, not whole input rows).
// A group is thus either wholly in the state or wholly in one partition.
// After the input, each partition is aggregated on its own — first letting
// the main state take the rows of groups it holds, as parallel workers'
// states close separately and a group another worker held is in the
// merged state — and a partition that fills memory again spills into
// partitions of the next hash bits. Results stream out partition by
// partition; the main state's come last.

// spillPartitions is how many files a closed state spills into; 4 bits of
// the key hash per level.
const (
	spillPartitions = 16
	spillLevels     = 15 // 4 bits each of the 64-bit hash, less one level
)

// aggregateShare is the part of the memory limit the live heap may reach
// before aggregation states close.
const aggregateShare = 0.5

// memoryPressure reports whether the live heap has passed aggregateShare
// of the memory limit.
func memoryPressure(ctx context.Context) bool {
	limit := memoryLimitOf(ctx)
	return limit > 0 && float64(liveHeap()) > aggregateShare*float64(limit)
}

// name is the operator in spill messages.
func (h *hashAggregate) name() string {
	if h.what != "" {
		return h.what
	}
	return "GROUP BY"
}

// aggSpill is where a closed state writes the rows of groups it does not
// hold.
type aggSpill struct {
	level  int           // which bits of the key hash pick the partition
	schema *arrow.Schema // the spilled rows' (spillSchema)
	what   string        // the operator, for messages
	parts  [spillPartitions]*spillFile
}

// spillSchema is the layout of spilled rows: the group keys, then the
// argument and the FILTER condition of each aggregate, those it has.
func (h *hashAggregate) spillSchema() *arrow.Schema {
	var fields []arrow.Field
	for i, g := range h.groupBy {
		fields = append(fields, arrow.Field{Name: fmt.Sprintf("k%d", i), Type: g.Type(), Nullable: true})
	}
	for _, c := range h.calls {
		for _, e := range c.Exprs() {
			fields = append(fields, arrow.Field{Name: fmt.Sprintf("a%d", len(fields)), Type: e.Type(), Nullable: true})
		}
	}
	return arrow.NewSchema(fields, nil)
}

// spillShape is the aggregation of spilled rows: the same calls over the
// spill schema's columns.
func (h *hashAggregate) spillShape() *hashAggregate {
	shape := &hashAggregate{schema: h.schema, what: h.what}
	for i, g := range h.groupBy {
		shape.groupBy = append(shape.groupBy, &planner.ColumnRef{Index: i, Name: fmt.Sprintf("k%d", i), T: g.Type()})
	}
	col := len(h.groupBy)
	for _, c := range h.calls {
		shape.calls = append(shape.calls, c.MapExprs(func(e planner.Expr) planner.Expr {
			ref := &planner.ColumnRef{Index: col, Name: fmt.Sprintf("a%d", col), T: e.Type()}
			col++
			return ref
		}))
	}
	return shape
}

// write appends the rows of cols (spill schema columns) to the partitions
// their hashes pick.
func (sp *aggSpill) write(ctx context.Context, cols []arrow.Array, rows []int32, hashes []uint64, mem memory.Allocator) error {
	var byPart [spillPartitions][]int32
	shift := 60 - 4*sp.level
	for _, r := range rows {
		p := hashes[r] >> shift & (spillPartitions - 1)
		byPart[p] = append(byPart[p], r)
	}
	for p, rs := range byPart {
		if len(rs) == 0 {
			continue
		}
		if sp.parts[p] == nil {
			f, err := newSpillFile(sp.schema, mem, sp.what)
			if err != nil {
				return err
			}
			sp.parts[p] = f
		}
		batch, err := takeBatch(ctx, sp.schema, cols, rs, mem)
		if err != nil {
			return err
		}
		err = sp.parts[p].write(batch)
		batch.Release()
		if err != nil {
			return err
		}
	}
	return nil
}

func (sp *aggSpill) close() {
	for _, f := range sp.parts {
		if f != nil {
			f.close()
		}
	}
}

// takeBatch is the rows of cols at rows, as a batch of schema.
func takeBatch(ctx context.Context, schema *arrow.Schema, cols []arrow.Array, rows []int32, mem memory.Allocator) (arrow.RecordBatch, error) {
	taken := make([]arrow.Array, len(cols))
	defer expr.ReleaseArrays(taken)
	for i, c := range cols {
		var err error
		if taken[i], err = expr.Take(ctx, mem, c, rows); err != nil {
			return nil, err
		}
	}
	return array.NewRecordBatch(schema, taken, int64(len(rows))), nil
}

// minGroupsBeforeClosing is how many groups a state takes before it may
// close: each spill level then takes groups off the rows, even when memory
// is short for reasons other than this aggregation.
const minGroupsBeforeClosing = 1 << 14

// closeIfFull closes a grouped state when memory is short.
func (st *aggState) closeIfFull(ctx context.Context) error {
	if st.spill != nil || st.keys == nil || st.groups < minGroupsBeforeClosing || !memoryPressure(ctx) {
		return nil
	}
	if st.level >= spillLevels {
		return fmt.Errorf("%s needs more memory than memory_limit (%s) allows, even spilling", st.h.name(), formatLimit(ctx))
	}
	st.spill = &aggSpill{level: st.level, schema: st.h.spillSchema(), what: st.h.name()}
	return nil
}

// addClosed folds a batch into a closed state: rows of its groups fold in,
// the others are spilled.
func (st *aggState) addClosed(ctx context.Context, batch arrow.RecordBatch, mem memory.Allocator) error {
	cols, err := st.spillColumns(ctx, batch, mem)
	if err != nil {
		return err
	}
	defer expr.ReleaseArrays(cols)
	missing, hashes, err := st.place(ctx, cols, mem)
	if err != nil || len(missing) == 0 {
		return err
	}
	return st.spill.write(ctx, cols, missing, hashes, mem)
}

// spillColumns evaluates a batch's group keys and aggregate arguments.
func (st *aggState) spillColumns(ctx context.Context, batch arrow.RecordBatch, mem memory.Allocator) ([]arrow.Array, error) {
	args := expr.NewBatchEvaluator(ctx, batch, mem)
	defer args.Release()
	var cols []arrow.Array
	for _, g := range st.h.groupBy {
		col, err := args.Eval(g)
		if err != nil {
			expr.ReleaseArrays(cols)
			return nil, fmt.Errorf("GROUP BY %s: %w", g, err)
		}
		// Spilled rows are written as the spill schema's plain values,
		// not as codes into the scan's dictionaries.
		if d, ok := col.(*array.Dictionary); ok {
			col = storage.DictionaryValues(d, mem)
			d.Release()
		}
		cols = append(cols, col)
	}
	for _, c := range st.h.calls {
		for _, e := range c.Exprs() {
			col, err := args.Eval(e)
			if err != nil {
				expr.ReleaseArrays(cols)
				return nil, fmt.Errorf("%s: %w", c, err)
			}
			cols = append(cols, col)
		}
	}
	return cols, nil
}

// place folds the rows of cols (spill schema columns) whose groups st
// holds into st, and returns the other rows with every row's key hash.
func (st *aggState) place(ctx context.Context, cols []arrow.Array, mem memory.Allocator) (missing []int32, hashes []uint64, err error) {
	k := len(st.h.groupBy)
	st.gids, hashes = st.keys.lookup(cols[:k], st.gids)
	var found []int32
	var gids []int32
	for r, g := range st.gids {
		if g < 0 {
			missing = append(missing, int32(r))
		} else {
			found = append(found, int32(r))
			gids = append(gids, g)
		}
	}
	if len(found) == 0 {
		return missing, hashes, nil
	}
	col := k
	for i, c := range st.h.calls {
		// The argument and the FILTER condition, those the call has.
		var taken [2]arrow.Array
		for j, e := range []planner.Expr{c.Arg, c.Filter} {
			if e == nil {
				continue
			}
			if taken[j], err = expr.Take(ctx, mem, cols[col], found); err != nil {
				expr.ReleaseArrays(taken[:])
				return nil, nil, err
			}
			col++
		}
		err = st.updateCall(ctx, i, taken[0], taken[1], gids, mem)
		expr.ReleaseArrays(taken[:])
		if err != nil {
			return nil, nil, err
		}
	}
	return missing, hashes, nil
}

// spillWork is a partition still to aggregate: its files (one per state
// that spilled into it) and the state that takes the rows of the groups it
// holds first (the main state, for the first level).
type spillWork struct {
	files    []*spillFile
	absorber *aggState
	level    int
}

// spilled is the rest of an aggregation that spilled: the partitions to
// aggregate, then the main state's result.
type spilled struct {
	h     *hashAggregate
	shape *hashAggregate
	main  *aggState
	work  []spillWork
}

// startSpilled merges the states into main (states[0]) and queues the
// partitions they spilled.
func (h *hashAggregate) startSpilled(ctx context.Context, states []*aggState, mem memory.Allocator) (*spilled, error) {
	s := &spilled{h: h, shape: h.spillShape(), main: states[0]}
	var byPart [spillPartitions][]*spillFile
	for i, st := range states {
		if i > 0 {
			if err := s.main.merge(ctx, st, mem); err != nil {
				for _, st := range states {
					if st.spill != nil {
						st.spill.close()
					}
				}
				return nil, err
			}
		}
		if st.spill != nil {
			for p, f := range st.spill.parts {
				if f != nil {
					byPart[p] = append(byPart[p], f)
				}
			}
		}
	}
	for _, files := range byPart {
		if len(files) > 0 {
			s.work = append(s.work, spillWork{files: files, absorber: s.main, level: 1})
		}
	}
	return s, nil
}

// next returns the result of the next partition with groups, then the main
// state's; nil at the end.
func (s *spilled) next(ctx context.Context, mem memory.Allocator) (arrow.RecordBatch, error) {
	for len(s.work) > 0 {
		w := s.work[len(s.work)-1]
		s.work = s.work[:len(s.work)-1]
		st, err := s.aggregatePartition(ctx, w, mem)
		for _, f := range w.files {
			f.close()
		}
		if err != nil {
			return nil, err
		}
		if st.spill != nil {
			for _, f := range st.spill.parts {
				if f != nil {
					s.work = append(s.work, spillWork{files: []*spillFile{f}, level: w.level + 1})
				}
			}
		}
		if st.groups > 0 {
			return st.result(mem), nil
		}
	}
	if s.main != nil {
		out := s.main.result(mem)
		s.main = nil
		return out, nil
	}
	return nil, nil
}

// aggregatePartition aggregates the rows of one partition, after the
// absorber took those of its groups.
func (s *spilled) aggregatePartition(ctx context.Context, w spillWork, mem memory.Allocator) (*aggState, error) {
	st, err := s.shape.newState()
	if err != nil {
		return nil, err
	}
	st.level = w.level
	if err := s.fold(ctx, st, w, mem); err != nil {
		if st.spill != nil {
			st.spill.close()
		}
		return nil, err
	}
	return st, nil
}

// fold adds the rows of w's files to st, after the absorber took those of
// its groups.
func (s *spilled) fold(ctx context.Context, st *aggState, w spillWork, mem memory.Allocator) error {
	schema := s.h.spillSchema()
	for _, f := range w.files {
		r, err := f.reader(mem)
		if err != nil {
			return err
		}
		for r.Next() {
			batch := r.RecordBatch()
			if w.absorber != nil {
				missing, _, err := w.absorber.place(ctx, batch.Columns(), mem)
				if err != nil {
					r.Release()
					return err
				}
				if len(missing) == 0 {
					continue
				}
				if batch, err = takeBatch(ctx, schema, batch.Columns(), missing, mem); err != nil {
					r.Release()
					return err
				}
			} else {
				batch.Retain()
			}
			err := st.add(ctx, batch, mem)
			batch.Release()
			if err != nil {
				r.Release()
				return err
			}
		}
		err = r.Err()
		r.Release()
		if err != nil {
			return fmt.Errorf("%s: reading back spilled rows: %w", s.h.name(), err)
		}
	}
	return nil
}

func (s *spilled) close() {
	for _, w := range s.work {
		for _, f := range w.files {
			f.close()
		}
	}
	s.work, s.main = nil, nil
}
