package engine

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/lakesql/lakesql/storage"
	"github.com/lakesql/lakesql/value"
)

// ErrReadOnly is the kind of error of a write in a read-only session.
var ErrReadOnly = errors.New("the session is read-only")

// checkFileAccess is the session's planner.FileAccess: with
// enable_external_access off, files are read and written only inside
// allowed_directories (compared by real path, so a symlink cannot lead out
// of them), as in DuckDB; a read-only session writes no file.
func (s *Session) checkFileAccess(path string, write bool) error {
	if write && s.opts.ReadOnly {
		return fmt.Errorf("cannot write %s: %w (--read-only)", value.Quote(path), ErrReadOnly)
	}
	if !s.settings.noExternalAccess {
		return nil
	}
	real := realPath(path)
	for _, dir := range s.settings.allowedDirs {
		if storage.Within(real, realPath(dir)) {
			return nil
		}
	}
	return fmt.Errorf("file access is disabled (enable_external_access = false): %s is not in allowed_directories", value.Quote(path))
}

// realPath is path made absolute with its symlinks resolved, as far as it
// exists (a file about to be written does not yet).
func realPath(path string) string {
	path = storage.LocalPath(path)
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	var rest []string
	for dir := path; ; dir = filepath.Dir(dir) {
		if real, err := storage.RealDir(dir); err == nil {
			return filepath.Join(append([]string{real}, rest...)...)
		} else if !errors.Is(err, fs.ErrNotExist) || dir == filepath.Dir(dir) {
			return path
		}
		rest = append([]string{filepath.Base(dir)}, rest...)
	}
}

// parseDirectories reads allowed_directories: DuckDB's list literal
// ['/a', '/b'] or a comma-separated list.
func parseDirectories(v string) []string {
	v = strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(v), "["), "]")
	var dirs []string
	for _, d := range strings.Split(v, ",") {
		if d = strings.Trim(strings.TrimSpace(d), `'"`); d != "" {
			dirs = append(dirs, d)
		}
	}
	return dirs
}
