package exec

import (
	"sort"

	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/sql"
)

// Window frames: the positions of an arrangement (windowRows) a frame
// holds for each position, between its bounds (span) less what its EXCLUDE
// clause takes out (exclude).

// numberGroups sets group and groupStart, once per arrangement.
func (r *windowRows) numberGroups() {
	if r.group != nil {
		return
	}
	r.group = make([]int32, len(r.perm))
	g := int32(-1)
	for k := range r.perm {
		if int(r.peerLo[k]) == k {
			g++
			r.groupStart = append(r.groupStart, int32(k))
		}
		r.group[k] = g
	}
	r.groupStart = append(r.groupStart, int32(len(r.perm)))
}

// positionRange is positions [lo, hi) of the arrangement.
type positionRange struct{ lo, hi int }

// frameRuns is a frame as the runs of consecutive positions it holds, in
// order: the positions between its bounds less those its EXCLUDE clause
// takes out, which leaves at most three runs (before the current row's
// peers, the current row, after its peers). The first n runs are used;
// they are not empty and not adjacent, so equal frames compare equal.
type frameRuns struct {
	runs [3]positionRange
	n    int
}

// add appends the positions of [lo, hi) that lie within [within.lo,
// within.hi).
func (f *frameRuns) add(lo, hi int, within positionRange) {
	lo, hi = max(lo, within.lo), min(hi, within.hi)
	switch {
	case lo >= hi:
	case f.n > 0 && f.runs[f.n-1].hi == lo:
		f.runs[f.n-1].hi = hi
	default:
		f.runs[f.n] = positionRange{lo, hi}
		f.n++
	}
}

// rows is the number of rows in the frame.
func (f frameRuns) rows() int {
	n := 0
	for _, run := range f.runs[:f.n] {
		n += run.hi - run.lo
	}
	return n
}

// nth returns the position of the frame's n-th row (from 0), counting from
// the end when n is negative (-1 is the last); -1 when there is none. With
// skip, only the rows whose value is not NULL count.
func (f frameRuns) nth(n int64, skip *nullSkipper) int64 {
	for i := range f.n {
		run := f.runs[i]
		if n < 0 {
			run = f.runs[f.n-1-i]
		}
		rows := run.rows(skip)
		switch {
		case n >= rows:
			n -= rows
		case -n > rows:
			n += rows
		default:
			return run.nth(n, skip)
		}
	}
	return -1
}

// rows is the number of positions in the range, or with skip of those
// whose value is not NULL.
func (run positionRange) rows(skip *nullSkipper) int64 {
	if skip != nil {
		return skip.count(run.lo, run.hi)
	}
	return int64(run.hi - run.lo)
}

// nth is frameRuns.nth for a frame of one run.
func (run positionRange) nth(n int64, skip *nullSkipper) int64 {
	if skip != nil {
		return skip.nth(run.lo, run.hi, n)
	}
	at := int64(run.lo) + n
	if n < 0 {
		at = int64(run.hi) + n
	}
	if at < int64(run.lo) || at >= int64(run.hi) {
		return -1
	}
	return at
}

// exclude returns the positions of span, the frame of position k before
// its EXCLUDE clause, that the clause leaves.
func (r *windowRows) exclude(f *planner.WindowFrame, span positionRange, k int) frameRuns {
	var runs frameRuns
	switch f.Exclude {
	case sql.ExcludeNoOthers:
		runs.add(span.lo, span.hi, span)
	case sql.ExcludeCurrentRow:
		runs.add(span.lo, k, span)
		runs.add(k+1, span.hi, span)
	default: // GROUP, or TIES, which keeps the current row
		peerLo, peerHi := int(r.peerLo[k]), int(r.peerHi[k])
		runs.add(span.lo, peerLo, span)
		if f.Exclude == sql.ExcludeTies {
			runs.add(k, k+1, span)
		}
		runs.add(peerHi, span.hi, span)
	}
	return runs
}

// span returns the positions between the bounds of the frame of position
// k of partition [ps, pe), before any EXCLUDE.
func (r *windowRows) span(f *planner.WindowFrame, k, ps, pe int) positionRange {
	lo := r.bound(f, &f.Start, k, ps, pe, false)
	hi := r.bound(f, &f.End, k, ps, pe, true)
	return positionRange{lo, max(lo, hi)}
}

// reach places a RANGE bound with an offset by binary search over the
// partition, whose keys are in ORDER BY order: the first position whose
// key is not before the value the bound reaches from position k (for a
// start), or is after it (one past the frame's last, for an end). A NULL
// key reaches NULL, which its peers equal.
func (r *windowRows) reach(cmp rowOrder, k, ps, pe int, end bool) int {
	row := int(r.perm[k])
	return ps + sort.Search(pe-ps, func(i int) bool {
		c := cmp(int(r.perm[ps+i]), row)
		return c > 0 || c == 0 && !end
	})
}

// bound places one end of a frame: the first position of the frame for
// the start, one past its last for the end, clamped to the partition.
func (r *windowRows) bound(f *planner.WindowFrame, b *planner.WindowBound, k, ps, pe int, end bool) int {
	next := 0 // an end is exclusive: one past the row it names
	if end {
		next = 1
	}
	if b.Value != nil { // a RANGE offset
		return r.reach(r.reaches[next], k, ps, pe, end)
	}
	switch b.Kind {
	case sql.UnboundedPreceding:
		return ps
	case sql.UnboundedFollowing:
		return pe
	case sql.Preceding, sql.Following:
		return r.countedBound(f.Unit, b, k, ps, pe, end)
	}
	switch { // CURRENT ROW
	case f.Unit == planner.RowsFrame:
		return k + next
	case end:
		return int(r.peerHi[k])
	}
	return int(r.peerLo[k])
}

// countedBound places a ROWS or GROUPS bound n PRECEDING or n FOLLOWING:
// the unit (row or peer group) n before or after position k's, its first
// position for a start, one past its last for an end; the partition's
// start or end when the count leaves it.
func (r *windowRows) countedBound(unit planner.FrameUnit, b *planner.WindowBound, k, ps, pe int, end bool) int {
	at, first, last := int64(k), int64(ps), int64(pe-1)
	if unit == planner.GroupsFrame {
		at, first, last = int64(r.group[k]), int64(r.group[ps]), int64(r.group[pe-1])
	}
	switch {
	case b.Kind == sql.Preceding && b.Offset > at-first:
		return ps
	case b.Kind == sql.Following && b.Offset > last-at:
		return pe
	case b.Kind == sql.Preceding:
		at -= b.Offset
	default:
		at += b.Offset
	}
	if end {
		at++ // one past the unit's last row: the next unit's first
	}
	if unit == planner.GroupsFrame {
		return int(r.groupStart[at])
	}
	return int(at)
}
