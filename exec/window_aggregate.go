package exec

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakesql/lakesql/exec/expr"
	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/sql"
)

// An aggregate over a window that the frame folds of window_funcs_agg.go
// do not cover (any aggregate, and count/sum/… with DISTINCT, FILTER or
// ORDER BY inside) runs on the accumulator GROUP BY uses, each distinct
// frame of the partition a group. Two ways feed it:
//
//   - Batched: the positions of many frames, one after another, go to one
//     accumulator in one update, frame i's rows with group id i. It costs
//     the sum of the frames' lengths, which suits short frames (ROWS
//     BETWEEN 2 PRECEDING AND 2 FOLLOWING) and small partitions.
//   - Running: frames that all start at the partition's start (the default
//     frame with ORDER BY, or the whole partition) grow with the position,
//     so one single-group accumulator is fed each frame's new rows and read
//     after each: the accumulators' results leave their state as it was.
//     Frames that all end at the partition's end (ROWS BETWEEN CURRENT ROW
//     AND UNBOUNDED FOLLOWING) are run the same way from the last, for the
//     aggregates that do not care about the order of their rows. It costs
//     one update and one read per distinct frame, so it is chosen when the
//     frames are long: their summed length, what batching would feed,
//     passes runningFactor reads' worth. Frames with an EXCLUDE clause
//     have holes that move with the row, and are always batched.
//
// Rows reach the accumulator in frame order, as string_agg and array_agg
// without an ORDER BY of their own show.

// batchBudget bounds the rows one batched update feeds.
const batchBudget = 1 << 16

// runningFactor is about how many rows a batched update feeds in the time
// one running update and read take.
const runningFactor = 64

// aggregateFrames computes call.Agg over every row's frame.
func aggregateFrames(ctx context.Context, call *planner.WindowCall, r *windowRows, batch arrow.RecordBatch, mem memory.Allocator) (arrow.Array, error) {
	if len(r.perm) == 0 {
		return expr.NullArray(mem, call.T, 0), nil
	}
	in, err := evalAggregateInput(ctx, call.Agg, r, batch, mem)
	if err != nil {
		return nil, err
	}
	defer in.release()
	frames, frameOf := distinctFrames(r, &call.Frame)
	out := frameResults{mem: mem}
	defer out.release()
	pending := frameBatch{in: in}
	for ps, pe := range r.partitions() {
		first, last := int(frameOf[r.perm[ps]]), int(frameOf[r.perm[pe-1]])
		if grows, shrinks := runsOn(call, frames.spans[first:last+1]); grows || shrinks {
			if err := pending.flush(ctx, &out); err != nil {
				return nil, err
			}
			if err := runFrames(ctx, in, frames.spans[first:last+1], shrinks, &out); err != nil {
				return nil, err
			}
			continue
		}
		for i := first; i <= last; i++ {
			if err := pending.add(ctx, frames.runs(i), &out); err != nil {
				return nil, err
			}
		}
	}
	if err := pending.flush(ctx, &out); err != nil {
		return nil, err
	}
	values, err := out.concat()
	if err != nil {
		return nil, err
	}
	defer values.Release()
	return expr.Take(ctx, mem, values, frameOf)
}

// aggregateInput is an aggregate's argument (nil for count(*)) and FILTER
// condition (nil without), by position in the window's arrangement.
type aggregateInput struct {
	agg       *planner.AggCall
	arg, cond arrow.Array
	mem       memory.Allocator
}

func evalAggregateInput(ctx context.Context, agg *planner.AggCall, r *windowRows, batch arrow.RecordBatch, mem memory.Allocator) (*aggregateInput, error) {
	in := &aggregateInput{agg: agg, mem: mem}
	for _, x := range []struct {
		e   planner.Expr
		out *arrow.Array
	}{{agg.Arg, &in.arg}, {agg.Filter, &in.cond}} {
		if x.e == nil {
			continue
		}
		vals, err := expr.Eval(ctx, x.e, batch, mem)
		if err != nil {
			in.release()
			return nil, err
		}
		*x.out, err = expr.Take(ctx, mem, vals, r.perm)
		vals.Release()
		if err != nil {
			in.release()
			return nil, err
		}
	}
	return in, nil
}

func (in *aggregateInput) release() {
	for _, a := range []arrow.Array{in.arg, in.cond} {
		if a != nil {
			a.Release()
		}
	}
}

// feed folds the input at positions (the rows [lo, hi) when positions is
// nil) into acc, row i at group gids[i].
func (in *aggregateInput) feed(ctx context.Context, acc accumulator, positions []int32, lo, hi int, gids []int32, groups int) error {
	pick := func(a arrow.Array) (arrow.Array, error) {
		if a == nil {
			return nil, nil
		}
		if positions == nil {
			return array.NewSlice(a, int64(lo), int64(hi)), nil
		}
		return expr.Take(ctx, in.mem, a, positions)
	}
	arg, err := pick(in.arg)
	if err != nil {
		return err
	}
	if arg != nil {
		defer arg.Release()
	}
	cond, err := pick(in.cond)
	if err != nil {
		return err
	}
	if cond != nil {
		defer cond.Release()
		if arg, gids, err = filterArg(ctx, in.agg, arg, cond, gids, in.mem); err != nil {
			return err
		}
		defer arg.Release()
	}
	return acc.update(ctx, arg, gids, groups)
}

// frameList is the distinct frames of an arrangement's partitions, in
// order: frame i holds the positions of spans[i], between its bounds, that
// its EXCLUDE clause leaves for position at[i], whose frame it is. Without
// EXCLUDE, the common case, at is nil and a frame is its span.
type frameList struct {
	r     *windowRows
	f     *planner.WindowFrame
	spans []positionRange
	at    []int32
}

// runs returns the positions of frame i.
func (l *frameList) runs(i int) frameRuns {
	k := 0 // read only by an EXCLUDE clause
	if l.at != nil {
		k = int(l.at[i])
	}
	return l.r.exclude(l.f, l.spans[i], k)
}

// distinctFrames lists the frames of every partition in order, one entry
// for consecutive positions with the same frame (peers, or a whole
// partition), and the entry of each input row.
func distinctFrames(r *windowRows, f *planner.WindowFrame) (*frameList, []int32) {
	frames := &frameList{r: r, f: f}
	excludes := f.Exclude != sql.ExcludeNoOthers
	frameOf := make([]int32, len(r.perm))
	for ps, pe := range r.partitions() {
		start := len(frames.spans)
		for k := ps; k < pe; k++ {
			span, last := r.span(f, k, ps, pe), len(frames.spans)-1
			same := last >= start && frames.spans[last] == span && (!excludes || frames.runs(last) == r.exclude(f, span, k))
			if !same {
				frames.spans = append(frames.spans, span)
				if excludes {
					frames.at = append(frames.at, int32(k))
				}
			}
			frameOf[r.perm[k]] = int32(len(frames.spans) - 1)
		}
	}
	return frames, frameOf
}

// coveredRows is the summed length of frames.
func coveredRows(frames []positionRange) int {
	n := 0
	for _, f := range frames {
		n += f.hi - f.lo
	}
	return n
}

// runsOn reports whether a partition's frames are long enough to be run
// rather than batched (runFrames): grows when they all start at the
// partition's start, shrinks when they all end at its end and the
// aggregate does not care about the order its rows come in (they are fed
// last first); never when EXCLUDE takes rows out of them.
func runsOn(call *planner.WindowCall, frames []positionRange) (grows, shrinks bool) {
	if call.Frame.Exclude != sql.ExcludeNoOthers || coveredRows(frames) <= runningFactor*len(frames) {
		return false, false
	}
	grows = call.Frame.Start.Kind == sql.UnboundedPreceding
	shrinks = !grows && call.Frame.End.Kind == sql.UnboundedFollowing && !call.Agg.ValueDependsOnRowOrder()
	return grows, shrinks
}

// runFrames computes frames that all start where the first does and end
// no earlier than the one before: one accumulator is fed each frame's new
// rows and read. With fromEnd, the frames all end where the last does and
// start no earlier than the one before: they are read last first, each
// after the rows before the previous one's start are fed.
func runFrames(ctx context.Context, in *aggregateInput, frames []positionRange, fromEnd bool, out *frameResults) error {
	acc, err := newAccumulator(in.agg)
	if err != nil {
		return err
	}
	collect := out
	if fromEnd {
		collect = &frameResults{mem: in.mem}
		defer collect.release()
	}
	var zeros []int32
	feed := func(lo, hi int) error {
		zeros = grow(zeros[:0], hi-lo)
		return in.feed(ctx, acc, nil, lo, hi, zeros, 1)
	}
	fed, unfed := frames[0].lo, frames[len(frames)-1].hi // fed [fed, hi) or [lo, unfed)
	for i := range frames {
		f := frames[i]
		if fromEnd {
			f = frames[len(frames)-1-i]
		}
		switch {
		case !fromEnd && f.hi > fed:
			err, fed = feed(fed, f.hi), f.hi
		case fromEnd && f.lo < unfed:
			err, unfed = feed(f.lo, unfed), f.lo
		}
		if err != nil {
			return err
		}
		if err := collect.add(acc.result(in.mem, 1)); err != nil {
			return err
		}
	}
	if !fromEnd {
		return nil
	}
	backwards, err := collect.concat()
	if err != nil {
		return err
	}
	defer backwards.Release()
	reverse := make([]int32, backwards.Len())
	for i := range reverse {
		reverse[i] = int32(len(reverse) - 1 - i)
	}
	forwards, err := expr.Take(ctx, in.mem, backwards, reverse)
	if err != nil {
		return err
	}
	return out.add(forwards)
}

// frameBatch gathers frames for one batched update: their positions one
// after another, each with its frame's group id.
type frameBatch struct {
	in        *aggregateInput
	positions []int32
	gids      []int32
	frames    int
}

// add appends frame f, flushing first when it would pass batchBudget.
func (b *frameBatch) add(ctx context.Context, f frameRuns, out *frameResults) error {
	if b.frames > 0 && len(b.positions)+f.rows() > batchBudget {
		if err := b.flush(ctx, out); err != nil {
			return err
		}
	}
	for _, run := range f.runs[:f.n] {
		for p := run.lo; p < run.hi; p++ {
			b.positions = append(b.positions, int32(p))
			b.gids = append(b.gids, int32(b.frames))
		}
	}
	b.frames++
	return nil
}

// flush computes the gathered frames and adds their results to out.
func (b *frameBatch) flush(ctx context.Context, out *frameResults) error {
	if b.frames == 0 {
		return nil
	}
	acc, err := newAccumulator(b.in.agg)
	if err != nil {
		return err
	}
	if err := b.in.feed(ctx, acc, b.positions, 0, 0, b.gids, b.frames); err != nil {
		return err
	}
	if err := out.add(acc.result(b.in.mem, b.frames)); err != nil {
		return err
	}
	b.positions, b.gids, b.frames = b.positions[:0], b.gids[:0], 0
	return nil
}

// frameResults collects the aggregate of each distinct frame, in frame
// order. A running computation adds one single-value array per frame;
// every compactEvery of them are concatenated, to keep their number down.
type frameResults struct {
	mem   memory.Allocator
	done  []arrow.Array // concatenated
	small []arrow.Array // since the last concatenation
}

const compactEvery = 1024

func (f *frameResults) add(a arrow.Array) error {
	if a.Len() > 1 {
		if err := f.compact(); err != nil {
			a.Release()
			return err
		}
		f.done = append(f.done, a)
		return nil
	}
	f.small = append(f.small, a)
	if len(f.small) < compactEvery {
		return nil
	}
	return f.compact()
}

// compact concatenates the small arrays into one done array.
func (f *frameResults) compact() error {
	if len(f.small) == 0 {
		return nil
	}
	joined, err := array.Concatenate(f.small, f.mem)
	if err != nil {
		return err
	}
	expr.ReleaseArrays(f.small)
	f.small = f.small[:0]
	f.done = append(f.done, joined)
	return nil
}

// concat returns every frame's aggregate as one array.
func (f *frameResults) concat() (arrow.Array, error) {
	if err := f.compact(); err != nil {
		return nil, err
	}
	if len(f.done) == 1 {
		f.done[0].Retain()
		return f.done[0], nil
	}
	return array.Concatenate(f.done, f.mem)
}

func (f *frameResults) release() {
	expr.ReleaseArrays(f.done)
	expr.ReleaseArrays(f.small)
}
