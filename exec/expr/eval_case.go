package expr

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakesql/lakesql/planner"
)

// CASE and COALESCE evaluate their branches lazily: each condition only over
// the rows no earlier arm matched, and each result only over the rows that
// chose it, so that `CASE WHEN x < 1000 THEN x * x END` cannot fail on rows it
// does not return. The per-arm results are then gathered into row order.

// caseWhen evaluates a searched CASE; a NULL condition does not match.
func (ev *evaluator) caseWhen(c *planner.Case) (arrow.Array, error) {
	pending := allRows(ev.n)
	arms := make([][]int32, len(c.Whens)+1) // rows per arm; the last is ELSE
	for k, w := range c.Whens {
		if len(pending) == 0 {
			break
		}
		cond, err := ev.evalOn(w.Cond, pending)
		if err != nil {
			return nil, err
		}
		var matched, rest []int32
		matched, rest, err = splitRows(pending, cond)
		cond.Release()
		if err != nil {
			return nil, fmt.Errorf("CASE condition %s: %w", w.Cond, err)
		}
		arms[k], pending = matched, rest
	}
	arms[len(c.Whens)] = pending

	g := ev.newGather(c.T)
	defer g.release()
	for k, rows := range arms {
		if len(rows) == 0 {
			continue
		}
		result := c.Else
		if k < len(c.Whens) {
			result = c.Whens[k].Result
		}
		arr, err := ev.evalOn(result, rows)
		if err != nil {
			return nil, err
		}
		g.add(arr, rows, len(rows))
	}
	return g.finish()
}

// coalesce returns, per row, the first non-NULL argument.
func (ev *evaluator) coalesce(c *planner.Call) (arrow.Array, error) {
	if len(c.Args) == 0 {
		return nil, fmt.Errorf("%s: needs at least one argument", c)
	}
	g := ev.newGather(c.T)
	defer g.release()
	pending := allRows(ev.n)
	for k, arg := range c.Args {
		arr, err := ev.evalOn(arg, pending)
		if err != nil {
			return nil, err
		}
		last := k == len(c.Args)-1
		var taken, rest []int32
		for j, row := range pending {
			if last || arr.IsValid(j) {
				taken = append(taken, row)
			} else {
				rest = append(rest, row)
			}
		}
		g.addSelected(arr, pending, taken)
		if pending = rest; len(pending) == 0 {
			break
		}
	}
	return g.finish()
}

// splitRows partitions rows by a BOOLEAN array over them: TRUE rows, and
// FALSE or NULL rows.
func splitRows(rows []int32, cond arrow.Array) (matched, rest []int32, err error) {
	switch cond := cond.(type) {
	case *array.Null:
		return nil, rows, nil
	case *array.Boolean:
		for j, row := range rows {
			if cond.IsValid(j) && cond.Value(j) {
				matched = append(matched, row)
			} else {
				rest = append(rest, row)
			}
		}
		return matched, rest, nil
	}
	return nil, nil, fmt.Errorf("condition is %s, not BOOLEAN", planner.TypeString(cond.DataType()))
}

func allRows(n int) []int32 {
	rows := make([]int32, n)
	for i := range rows {
		rows[i] = int32(i)
	}
	return rows
}

// evalOn evaluates e over the given rows of the batch (ascending), returning
// an array of len(rows) values.
func (ev *evaluator) evalOn(e planner.Expr, rows []int32) (arrow.Array, error) {
	if len(rows) == ev.n {
		return ev.eval(e)
	}
	sub, err := ev.subBatch(e, rows)
	if err != nil {
		return nil, err
	}
	defer sub.Release()
	return (&evaluator{ctx: ev.ctx, batch: sub, mem: ev.mem, n: len(rows)}).eval(e)
}

// subBatch takes rows from the columns e reads; the other columns are
// replaced by buffer-less NULL columns so that column indexes still line up.
func (ev *evaluator) subBatch(e planner.Expr, rows []int32) (arrow.RecordBatch, error) {
	used := map[int]bool{}
	columnsOf(e, used)
	ncols := int(ev.batch.NumCols())
	fields := make([]arrow.Field, ncols)
	cols := make([]arrow.Array, ncols)
	defer ReleaseArrays(cols)
	for i := range cols {
		f := ev.batch.Schema().Field(i)
		if !used[i] {
			fields[i] = arrow.Field{Name: f.Name, Type: arrow.Null, Nullable: true}
			cols[i] = array.NewNull(len(rows))
			continue
		}
		col, err := Take(ev.ctx, ev.mem, ev.batch.Column(i), rows)
		if err != nil {
			return nil, fmt.Errorf("selecting rows of column %s: %w", f.Name, err)
		}
		fields[i], cols[i] = f, col
	}
	return array.NewRecordBatch(arrow.NewSchema(fields, nil), cols, int64(len(rows))), nil
}

// columnsOf adds the indexes of the columns e reads to used.
func columnsOf(e planner.Expr, used map[int]bool) {
	switch e := e.(type) {
	case *planner.ColumnRef:
		used[e.Index] = true
	case *planner.Call:
		for _, a := range e.Args {
			columnsOf(a, used)
		}
	case *planner.Cast:
		columnsOf(e.X, used)
	case *planner.Case:
		for _, w := range e.Whens {
			columnsOf(w.Cond, used)
			columnsOf(w.Result, used)
		}
		columnsOf(e.Else, used)
	}
}

// int32Array wraps rows (not copied) as an INT array.
func Int32Array(rows []int32) arrow.Array {
	buf := memory.NewBufferBytes(arrow.Int32Traits.CastToBytes(rows))
	defer buf.Release()
	data := array.NewData(arrow.PrimitiveTypes.Int32, len(rows), []*memory.Buffer{nil, buf}, nil, 0, 0)
	defer data.Release()
	return array.MakeFromData(data)
}

func ReleaseArrays(arrs []arrow.Array) {
	for _, a := range arrs {
		if a != nil {
			a.Release()
		}
	}
}

// gather assembles a result from pieces evaluated over subsets of the rows:
// idx[row] is the row's position in the concatenation of the pieces.
type gather struct {
	ev     *evaluator
	t      arrow.DataType
	pieces []arrow.Array
	idx    []int32
	base   int32
}

func (ev *evaluator) newGather(t arrow.DataType) *gather {
	return &gather{ev: ev, t: t, idx: make([]int32, ev.n)}
}

// add takes ownership of piece, whose value j belongs to rows[j].
func (g *gather) add(piece arrow.Array, rows []int32, n int) {
	for j, row := range rows {
		g.idx[row] = g.base + int32(j)
	}
	g.pieces = append(g.pieces, piece)
	g.base += int32(n)
}

// addSelected takes ownership of piece, evaluated over rows, of which only
// the rows in taken (a subsequence) use it.
func (g *gather) addSelected(piece arrow.Array, rows, taken []int32) {
	j := 0
	for _, row := range taken {
		for rows[j] != row {
			j++
		}
		g.idx[row] = g.base + int32(j)
	}
	g.pieces = append(g.pieces, piece)
	g.base += int32(len(rows))
}

func (g *gather) release() { ReleaseArrays(g.pieces) }

// finish returns the assembled array; the gather still owns its pieces.
func (g *gather) finish() (arrow.Array, error) {
	if g.ev.n == 0 {
		return NullArray(g.ev.mem, g.t, 0), nil
	}
	for i, p := range g.pieces {
		// A bare NULL branch has the Null type; give it the result type.
		if p.DataType().ID() == arrow.NULL && g.t.ID() != arrow.NULL {
			g.pieces[i] = NullArray(g.ev.mem, g.t, p.Len())
			p.Release()
		}
	}
	if len(g.pieces) == 1 {
		return Take(g.ev.ctx, g.ev.mem, g.pieces[0], g.idx)
	}
	values, err := array.Concatenate(g.pieces, g.ev.mem)
	if err != nil {
		return nil, fmt.Errorf("combining branch results: %w", err)
	}
	defer values.Release()
	return Take(g.ev.ctx, g.ev.mem, values, g.idx)
}
