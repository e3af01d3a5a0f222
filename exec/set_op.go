package exec

import (
	"context"
	"errors"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/lakesql/lakesql/exec/expr"
	"github.com/lakesql/lakesql/planner"
)

// setOp computes INTERSECT and EXCEPT [ALL] by hashing: it counts the
// distinct rows of the right input, then streams the left input and keeps a
// row according to the count of its key (NULLs equal). ALL variants consume
// one count per row kept (INTERSECT ALL) or dropped (EXCEPT ALL), which gives
// min(m, n) and max(m - n, 0) copies of a row seen m times left, n right.
type setOp struct {
	op          string // planner.SetIntersect or planner.SetExcept
	all         bool
	left, right Operator
	schema      *arrow.Schema

	table  *keyTable
	counts []int64 // per key number: copies in the right input not yet consumed
}

// NewSetOp returns left INTERSECT|EXCEPT [ALL] right (op is
// planner.SetIntersect or planner.SetExcept); the inputs produce schema's types.
func NewSetOp(op string, all bool, schema *arrow.Schema, left, right Operator) Operator {
	return &setOp{op: op, all: all, left: left, right: right, schema: schema}
}

func (s *setOp) Schema() *arrow.Schema { return s.schema }

func (s *setOp) Open(ctx context.Context) error {
	if err := s.left.Open(ctx); err != nil {
		return err
	}
	return s.right.Open(ctx)
}

func (s *setOp) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if s.table == nil {
		if err := s.countRight(ctx); err != nil {
			return nil, err
		}
	}
	for {
		batch, err := s.left.Next(ctx)
		if err != nil || batch == nil {
			return nil, err
		}
		renamed := array.NewRecordBatch(s.schema, batch.Columns(), batch.NumRows())
		batch.Release()
		out, err := s.keep(ctx, renamed)
		renamed.Release()
		if err != nil || out != nil {
			return out, err
		}
	}
}

// countRight reads the right input into the table of key counts.
func (s *setOp) countRight(ctx context.Context) error {
	s.table = newKeyTable()
	for {
		batch, err := s.right.Next(ctx)
		if err != nil || batch == nil {
			return err
		}
		keys, err := encodeKeys(batch.Columns(), int(batch.NumRows()))
		batch.Release()
		if err != nil {
			return err
		}
		for r := range keys.hasNull {
			id, added := s.table.insert(keys.key(r))
			if added {
				s.counts = append(s.counts, 0)
			}
			s.counts[id]++
		}
	}
}

// keep returns the rows of a left batch the operation keeps, or nil.
func (s *setOp) keep(ctx context.Context, batch arrow.RecordBatch) (arrow.RecordBatch, error) {
	keys, err := encodeKeys(batch.Columns(), int(batch.NumRows()))
	if err != nil {
		return nil, err
	}
	var rows []int32
	for r := range keys.hasNull {
		if s.keepRow(keys.key(r)) {
			rows = append(rows, int32(r))
		}
	}
	return selectRows(ctx, batch, rows)
}

func (s *setOp) keepRow(key []byte) bool {
	switch {
	case s.op == planner.SetIntersect:
		id := s.table.find(key)
		if id < 0 || s.counts[id] == 0 {
			return false
		}
		if s.all {
			s.counts[id]--
		} else {
			s.counts[id] = 0 // a distinct row is returned once
		}
		return true
	case s.all: // EXCEPT ALL
		if id := s.table.find(key); id >= 0 && s.counts[id] > 0 {
			s.counts[id]--
			return false
		}
		return true
	default: // EXCEPT: a key new to the table is neither right nor returned yet
		_, added := s.table.insert(key)
		return added
	}
}

// selectRows returns the given rows of batch, or nil when rows is empty.
func selectRows(ctx context.Context, batch arrow.RecordBatch, rows []int32) (arrow.RecordBatch, error) {
	switch len(rows) {
	case 0:
		return nil, nil
	case int(batch.NumRows()):
		batch.Retain()
		return batch, nil
	}
	cols, err := takeRows(ctx, batch.Schema(), batch, rows, nil)
	if err != nil {
		return nil, err
	}
	defer expr.ReleaseArrays(cols)
	return array.NewRecordBatch(batch.Schema(), cols, int64(len(rows))), nil
}

func (s *setOp) Close() error {
	return errors.Join(s.left.Close(), s.right.Close())
}

// buildSetOp builds UNION as a union, INTERSECT and EXCEPT as a set operation.
func buildSetOp(ctx context.Context, p *planner.SetOp, env *Env) (Operator, error) {
	left, err := Build(ctx, p.Left, env)
	if err != nil {
		return nil, err
	}
	right, err := Build(ctx, p.Right, env)
	if err != nil {
		left.Close()
		return nil, err
	}
	schema := ArrowSchema(p.Columns)
	if p.Op == planner.SetUnion {
		return NewUnion(schema, p.All, left, right), nil
	}
	return NewSetOp(p.Op, p.All, schema, left, right), nil
}
