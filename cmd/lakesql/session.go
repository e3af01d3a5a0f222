package main

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakesql/lakesql"
)

// session is the part of *lakesql.Session the front end uses. It exists so the
// CLI and REPL can be tested against a fake engine.
type session interface {
	Exec(ctx context.Context, statement string) (result, error)
	TableNames(ctx context.Context) []string
	ColumnNames(ctx context.Context) []string
	Close() error
}

// result is one statement's outcome: a batch stream when Schema is non-nil,
// otherwise just a Message.
type result interface {
	Schema() *arrow.Schema
	Message() string
	Next(ctx context.Context) (arrow.RecordBatch, error)
	Close() error
}

// openSession opens the engine; tests replace it with a fake.
var openSession = func(ctx context.Context, opts lakesql.Options) (session, error) {
	s, err := lakesql.Open(ctx, opts)
	if err != nil {
		return nil, err
	}
	return engineSession{s}, nil
}

// engineSession adapts *lakesql.Session to session.
type engineSession struct{ s *lakesql.Session }

func (e engineSession) Exec(ctx context.Context, statement string) (result, error) {
	r, err := e.s.Exec(ctx, statement)
	if err != nil {
		return nil, err
	}
	return engineResult{r}, nil
}

func (e engineSession) TableNames(ctx context.Context) []string  { return e.s.TableNames(ctx) }
func (e engineSession) ColumnNames(ctx context.Context) []string { return e.s.ColumnNames(ctx) }
func (e engineSession) Close() error                             { return e.s.Close() }

// engineResult adapts *lakesql.Result, whose Schema and Message are fields,
// to result.
type engineResult struct{ r *lakesql.Result }

func (e engineResult) Schema() *arrow.Schema { return e.r.Schema }
func (e engineResult) Message() string       { return e.r.Message }
func (e engineResult) Next(ctx context.Context) (arrow.RecordBatch, error) {
	return e.r.Next(ctx)
}
func (e engineResult) Close() error { return e.r.Close() }
