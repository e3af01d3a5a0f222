package storage

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// ErrFileExists is the kind of error of a write to a path that already
// holds a file when replacing it was not asked for.
var ErrFileExists = errors.New("file already exists")

// WriteNewFile writes the file at path with write, atomically: write fills a
// temporary file in the same folder, which then takes path's place, so a
// reader never sees half a file and a failed write leaves path as it was.
// An existing file is replaced only when overwrite is set (and never a
// folder); without it, a file that appears at path while write runs is kept
// too. Only local paths (plain or file://) can be written.
func WriteNewFile(path string, overwrite bool, write func(w io.Writer) error) error {
	if i := strings.Index(path, "://"); i > 0 && !strings.HasPrefix(path, "file://") {
		return fmt.Errorf("cannot write %s: only local files can be written", path)
	}
	path = LocalPath(path)
	if info, err := os.Stat(path); err == nil {
		if info.IsDir() {
			return fmt.Errorf("cannot write %s: it is a folder", path)
		}
		if !overwrite {
			return fmt.Errorf("%s: %w (add OVERWRITE to replace it)", path, ErrFileExists)
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("cannot write %s: %v", path, pathErrorText(err))
	}
	if _, err := os.Stat(filepath.Dir(path)); errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("cannot write %s: folder %s does not exist", path, filepath.Dir(path))
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("cannot write %s: %v", path, pathErrorText(err))
	}
	// The temporary file is lakesql's own until it takes path's place; a
	// failed write removes it and nothing else.
	placed := false
	defer func() {
		if !placed {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	// CreateTemp makes the file private; a written file is an ordinary one.
	if err := tmp.Chmod(0o644); err != nil {
		return fmt.Errorf("cannot write %s: %v", path, pathErrorText(err))
	}
	buf := bufio.NewWriterSize(tmp, 1<<20)
	if err := write(buf); err != nil {
		return err
	}
	if err := buf.Flush(); err != nil {
		return fmt.Errorf("write %s: %v", path, pathErrorText(err))
	}
	if err := tmp.Sync(); err != nil {
		return fmt.Errorf("write %s: %v", path, pathErrorText(err))
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("write %s: %v", path, pathErrorText(err))
	}
	return placeFile(tmp.Name(), path, overwrite, &placed)
}

// placeFile moves the finished temporary file to path: a rename replaces
// what is there; a hard link fails if anything appeared at path meanwhile.
func placeFile(tmp, path string, overwrite bool, placed *bool) error {
	if overwrite {
		if err := os.Rename(tmp, path); err != nil {
			return fmt.Errorf("write %s: %v", path, pathErrorText(err))
		}
		*placed = true
		return nil
	}
	if err := os.Link(tmp, path); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return fmt.Errorf("%s: %w (add OVERWRITE to replace it)", path, ErrFileExists)
		}
		return fmt.Errorf("write %s: %v", path, pathErrorText(err))
	}
	return nil // the deferred cleanup removes the temporary name
}

// pathErrorText is the reason of an *fs.PathError without the path and
// operation it repeats.
func pathErrorText(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err.Error()
	}
	return err.Error()
}
