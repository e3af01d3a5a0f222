package engine

import (
	"context"
	"fmt"

	"github.com/lakesql/lakesql/exec"
	"github.com/lakesql/lakesql/optimizer"
	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/sql"
)

// Plan binds and optimizes a query.
func (s *Session) Plan(ctx context.Context, q *sql.Query) (planner.Plan, error) {
	p, err := planner.BindQuery(ctx, s, q)
	if err != nil {
		return nil, err
	}
	return s.Optimize(ctx, p)
}

// PlanStored plans a query whose rows become a new table's (CREATE TABLE
// … AS): its columns have the types the table stores them as.
func (s *Session) PlanStored(ctx context.Context, q *sql.Query) (planner.Plan, error) {
	p, err := planner.BindQuery(ctx, s, q)
	if err != nil {
		return nil, err
	}
	if p, err = planner.AsStored(p); err != nil {
		return nil, err
	}
	return s.Optimize(ctx, p)
}

// Optimize runs the optimizer's rules over a bound plan, less those the
// session turned off (SET pruning = off turns off file pruning and answers
// from metadata: every file is read).
func (s *Session) Optimize(ctx context.Context, p planner.Plan) (planner.Plan, error) {
	disabled := s.settings.disabledRules
	if s.settings.noPruning {
		disabled = map[string]bool{"prune_files": true, "answer_from_metadata": true}
		for name := range s.settings.disabledRules {
			disabled[name] = true
		}
	}
	return optimizer.Optimize(ctx, &optimizer.Env{Manifests: s.manifests, Disabled: disabled}, p)
}

// Query runs a query and returns its rows.
func (s *Session) Query(ctx context.Context, q *sql.Query) (*Result, error) {
	p, err := s.Plan(ctx, q)
	if err != nil {
		return nil, err
	}
	return s.Run(ctx, p, nil)
}

// PlanScan optimizes a scan of a table under a condition over its columns
// (nil for none), as a query's WHERE would be, and returns the scan the
// optimizer made of it: its Files are those that may hold rows where cond
// holds. DELETE and rewrite_data_files choose their files this way, so they
// prune exactly as SELECT does.
func (s *Session) PlanScan(ctx context.Context, scan *planner.Scan, cond planner.Expr) (*planner.Scan, error) {
	var p planner.Plan = scan
	if cond != nil {
		p = &planner.Filter{Input: scan, Cond: cond}
	}
	p, err := s.Optimize(ctx, p)
	if err != nil {
		return nil, err
	}
	for {
		switch n := p.(type) {
		case *planner.Scan:
			return n, nil
		case *planner.Filter:
			p = n.Input
		default:
			return nil, fmt.Errorf("planning a scan of %s gave %s, not a scan", scan.Table.QualifiedName(), n.Describe())
		}
	}
}

// Env is the execution environment of the session's statements.
func (s *Session) Env() *exec.Env {
	return &exec.Env{FS: s.wh.FS(), NoPruning: s.settings.noPruning, ManifestCache: s.manifests, SimplifyFilter: optimizer.SimplifyScanFilter}
}

// Run builds and opens the operators of a plan (env nil: the session's).
func (s *Session) Run(ctx context.Context, p planner.Plan, env *exec.Env) (*Result, error) {
	if env == nil {
		env = s.Env()
	}
	op, err := exec.Build(ctx, p, env)
	if err != nil {
		return nil, err
	}
	if err := op.Open(ctx); err != nil {
		op.Close()
		return nil, err
	}
	res := &Result{Schema: op.Schema(), rows: op}
	if s.settings.loc != nil {
		res.showIn(s.settings.loc)
	}
	return res, nil
}
