package ddl

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"

	"github.com/lakesql/lakesql/internal/engine"
	"github.com/lakesql/lakesql/sql"
)

// ImportDatabase runs IMPORT DATABASE 'dir': the statements of
// dir/schema.sql, then those of dir/load.sql, each through run (the
// session's own statement runner, so read-only sessions and the statement
// rules apply as if they were typed). Tables are created in the namespaces
// the scripts name, unqualified ones in the current namespace. There is no
// transaction across tables: a failing statement stops the import, and the
// error says which; what ran before it stays.
func ImportDatabase(ctx context.Context, s *engine.Session, st *sql.ImportDatabase, run func(context.Context, sql.Statement) (*engine.Result, error)) (*engine.Result, error) {
	created := 0
	for _, file := range []string{exportSchemaFile, exportLoadFile} {
		path := filepath.Join(st.Path, file)
		text, err := readScript(s, path)
		if err != nil {
			return nil, fmt.Errorf("IMPORT DATABASE: %w", err)
		}
		stmts, err := sql.Parse(text)
		if err != nil {
			return nil, fmt.Errorf("IMPORT DATABASE: %s: %w", path, err)
		}
		for i, stmt := range stmts {
			if _, nested := stmt.(*sql.ImportDatabase); nested {
				return nil, fmt.Errorf("IMPORT DATABASE: %s: statement %d is an IMPORT DATABASE, which an import does not run", path, i+1)
			}
			res, err := run(ctx, stmt)
			if err != nil {
				return nil, fmt.Errorf("IMPORT DATABASE: %s: statement %d: %w", path, i+1, err)
			}
			res.Close()
			if _, ok := stmt.(*sql.CreateTable); ok {
				created++
			}
		}
	}
	return engine.Message(fmt.Sprintf("imported %d %s from %s", created, plural(created, "table"), st.Path)), nil
}

// readScript reads one of the export's SQL files through the session's file
// system, as the files the scripts load are read.
func readScript(s *engine.Session, path string) (string, error) {
	f, err := s.FileIO().Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("%s does not exist (IMPORT DATABASE reads a folder EXPORT DATABASE wrote)", path)
	}
	if err != nil {
		return "", fmt.Errorf("cannot read %s: %w", path, err)
	}
	defer f.Close()
	b, err := io.ReadAll(f)
	if err != nil {
		return "", fmt.Errorf("cannot read %s: %w", path, err)
	}
	return string(b), nil
}
