package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"

	"github.com/lakesql/lakesql"
	"github.com/lakesql/lakesql/storage"
)

// lazySession opens the engine at the first statement. A warehouse folder
// that does not exist is not created by a mistyped --warehouse: only a
// statement that creates something may create it, and the shell says so.
type lazySession struct {
	opts   lakesql.Options
	notify io.Writer // told when the folder is created
	sess   session
	err    error // the open error, reported by every statement
}

// open opens the engine for stmt ("" for a catalog lookup, which never
// creates the folder).
func (l *lazySession) open(ctx context.Context, stmt string) (session, error) {
	if l.sess != nil || l.err != nil {
		return l.sess, l.err
	}
	_, statErr := os.Stat(l.opts.Warehouse)
	// An object store location (s3://…) is no folder to create.
	missing := errors.Is(statErr, fs.ErrNotExist) && !storage.IsObjectLocation(l.opts.Warehouse)
	if missing && !createsSomething(stmt) {
		// Not remembered: a later CREATE may still create the folder.
		return nil, fmt.Errorf("warehouse folder %s does not exist (check --warehouse or $LAKESQL_WAREHOUSE; a CREATE statement creates it)", l.opts.Warehouse)
	}
	l.sess, l.err = openSession(ctx, l.opts)
	if l.err != nil {
		l.err = fmt.Errorf("opening warehouse %s: %w", l.opts.Warehouse, l.err)
		return nil, l.err
	}
	if missing {
		fmt.Fprintf(l.notify, "Created warehouse folder %s\n", l.opts.Warehouse)
	}
	return l.sess, nil
}

func (l *lazySession) Exec(ctx context.Context, stmt string) (result, error) {
	s, err := l.open(ctx, stmt)
	if err != nil {
		return nil, err
	}
	return s.Exec(ctx, stmt)
}

func (l *lazySession) TableNames(ctx context.Context) []string {
	if s, err := l.open(ctx, ""); err == nil {
		return s.TableNames(ctx)
	}
	return nil
}

func (l *lazySession) ColumnNames(ctx context.Context) []string {
	if s, err := l.open(ctx, ""); err == nil {
		return s.ColumnNames(ctx)
	}
	return nil
}

func (l *lazySession) Close() error {
	if l.sess == nil {
		return nil
	}
	return l.sess.Close()
}

// createsSomething reports whether a statement's first word, after
// comments, is CREATE.
func createsSomething(stmt string) bool {
	s := stmt
	for {
		s = strings.TrimSpace(s)
		switch {
		case strings.HasPrefix(s, "--"):
			if i := strings.IndexByte(s, '\n'); i >= 0 {
				s = s[i+1:]
				continue
			}
			return false
		case strings.HasPrefix(s, "/*"):
			if i := strings.Index(s, "*/"); i >= 0 {
				s = s[i+2:]
				continue
			}
			return false
		}
		word, _, _ := strings.Cut(s, " ")
		word, _, _ = strings.Cut(word, "\n")
		return strings.EqualFold(word, "CREATE")
	}
}
