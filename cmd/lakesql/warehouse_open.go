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
	"github.com/lakesql/lakesql/catalog"
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
	// scratch runs, while the folder is missing, statements that may read
	// files only (SELECT * FROM 'x.csv', COPY … TO): a session over an
	// empty warehouse in a temporary folder, removed by Close.
	scratch    session
	scratchDir string
}

// noWarehouseError is the error of a statement that needs the warehouse
// folder, which does not exist.
type noWarehouseError struct{ dir string }

func (e *noWarehouseError) Error() string {
	return fmt.Sprintf("warehouse folder %s does not exist (check --warehouse or $LAKESQL_WAREHOUSE; a CREATE statement creates it)", e.dir)
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
		return nil, l.missing()
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

// missing is the error of a statement that needs the missing folder.
func (l *lazySession) missing() error { return &noWarehouseError{dir: l.opts.Warehouse} }

func (l *lazySession) Exec(ctx context.Context, stmt string) (result, error) {
	s, err := l.open(ctx, stmt)
	var noWarehouse *noWarehouseError
	if errors.As(err, &noWarehouse) && mayReadFilesOnly(stmt) {
		return l.execScratch(ctx, stmt)
	}
	if err != nil {
		return nil, err
	}
	return s.Exec(ctx, stmt)
}

// execScratch runs stmt without the missing warehouse folder: a statement
// that turns out to need a table gets the missing folder's error.
func (l *lazySession) execScratch(ctx context.Context, stmt string) (result, error) {
	if l.scratch == nil {
		dir, err := os.MkdirTemp("", "lakesql-scratch-")
		if err != nil {
			return nil, l.missing()
		}
		opts := l.opts
		opts.Warehouse, opts.CatalogURI, opts.CatalogProps = dir, "", nil
		if l.scratch, err = openSession(ctx, opts); err != nil {
			os.RemoveAll(dir)
			return nil, l.missing()
		}
		l.scratchDir = dir
	}
	res, err := l.scratch.Exec(ctx, stmt)
	if errors.Is(err, catalog.ErrNoSuchNamespace) || errors.Is(err, catalog.ErrNoSuchTable) {
		return nil, l.missing()
	}
	return res, err
}

// mayReadFilesOnly reports whether a statement's first word starts one
// that can run on files alone: a query, COPY, DESCRIBE, SUMMARIZE or
// EXPLAIN.
func mayReadFilesOnly(stmt string) bool {
	switch strings.ToLower(firstWord(stmt)) {
	case "select", "with", "from", "values", "copy", "describe", "summarize", "explain":
		return true
	}
	return strings.HasPrefix(firstWord(stmt), "(")
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
	if l.scratch != nil {
		l.scratch.Close()
		os.RemoveAll(l.scratchDir) // made by execScratch, holds nothing else
	}
	if l.sess == nil {
		return nil
	}
	return l.sess.Close()
}

// createsSomething reports whether a statement's first word, after
// comments, is CREATE.
func createsSomething(stmt string) bool {
	return strings.EqualFold(firstWord(stmt), "CREATE")
}

// firstWord is a statement's first word, after comments.
func firstWord(stmt string) string {
	s := stmt
	for {
		s = strings.TrimSpace(s)
		switch {
		case strings.HasPrefix(s, "--"):
			if i := strings.IndexByte(s, '\n'); i >= 0 {
				s = s[i+1:]
				continue
			}
			return ""
		case strings.HasPrefix(s, "/*"):
			if i := strings.Index(s, "*/"); i >= 0 {
				s = s[i+2:]
				continue
			}
			return ""
		}
		word, _, _ := strings.Cut(s, " ")
		word, _, _ = strings.Cut(word, "\n")
		return word
	}
}
