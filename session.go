package lakesql

import (
	"context"
	"errors"
)

// Session runs statements against one warehouse. A session is not safe for
// concurrent use; open one per goroutine.
type Session struct {
	opts Options
}

// Open opens a session on the warehouse in opts.
func Open(ctx context.Context, opts Options) (*Session, error) {
	if opts.Catalog == "" {
		opts.Catalog = "lakesql"
	}
	return &Session{opts: opts}, nil
}

// Exec runs one statement (without a trailing ';') and returns its result.
func (s *Session) Exec(ctx context.Context, statement string) (*Result, error) {
	return nil, errors.New("not implemented yet")
}

// TableNames lists "namespace.table" for every table, for completion.
func (s *Session) TableNames(ctx context.Context) []string { return nil }

// ColumnNames lists the columns of every table, for completion.
func (s *Session) ColumnNames(ctx context.Context) []string { return nil }

// Close releases the session.
func (s *Session) Close() error { return nil }
