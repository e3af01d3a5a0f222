package storage

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// ErrFolderNotEmpty is the kind of error of a write to a folder that
// already holds files when replacing them was not asked for.
var ErrFolderNotEmpty = errors.New("folder is not empty")

// FolderTarget is a folder being written as a whole, such as the output of
// a partitioned COPY: files are written below Staging, a new folder beside
// the target, which Place then moves to the target's name, so readers never
// see half the files and a failed write leaves the target as it was.
type FolderTarget struct {
	Path    string // the folder that Place fills
	Staging string // where the files are written until then
	// owned reports whether an entry of an existing target, named by its
	// path below the target, is one an earlier write of this kind made;
	// OVERWRITE replaces only folders holding nothing else.
	owned     func(rel string, dir bool) bool
	overwrite bool
}

// NewFolderTarget checks that path can be written (see FolderTarget) and
// creates its staging folder. An existing empty folder is always replaced;
// one with files only with overwrite, and only when owned accepts every
// entry in it, so OVERWRITE cannot delete a folder of unrelated files.
func NewFolderTarget(path string, overwrite bool, owned func(rel string, dir bool) bool) (*FolderTarget, error) {
	if i := strings.Index(path, "://"); i > 0 && !strings.HasPrefix(path, "file://") {
		return nil, fmt.Errorf("cannot write %s: only local folders can be written", path)
	}
	t := &FolderTarget{Path: LocalPath(path), owned: owned, overwrite: overwrite}
	if err := t.checkReplaceable(); err != nil {
		return nil, err
	}
	parent := filepath.Dir(t.Path)
	if _, err := os.Stat(parent); errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("cannot write %s: folder %s does not exist", t.Path, parent)
	}
	staging, err := os.MkdirTemp(parent, "."+filepath.Base(t.Path)+".*.tmp")
	if err != nil {
		return nil, fmt.Errorf("cannot write %s: %v", t.Path, pathErrorText(err))
	}
	if err := os.Chmod(staging, 0o755); err != nil {
		os.Remove(staging)
		return nil, fmt.Errorf("cannot write %s: %v", t.Path, pathErrorText(err))
	}
	t.Staging = staging
	return t, nil
}

// checkReplaceable fails when the target is a file, or a folder that holds
// something Place may not replace.
func (t *FolderTarget) checkReplaceable() error {
	info, err := os.Stat(t.Path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("cannot write %s: %v", t.Path, pathErrorText(err))
	}
	if !info.IsDir() {
		return fmt.Errorf("cannot write %s: it is a file, not a folder", t.Path)
	}
	err = filepath.WalkDir(t.Path, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p == t.Path {
			return nil
		}
		rel, _ := filepath.Rel(t.Path, p)
		if !t.overwrite {
			return fmt.Errorf("%s: %w (add OVERWRITE to replace what it holds)", t.Path, ErrFolderNotEmpty)
		}
		if !t.owned(rel, d.IsDir()) {
			return fmt.Errorf("%s: OVERWRITE replaces only what an earlier COPY wrote, and %s is not that; remove it or write to another folder", t.Path, rel)
		}
		return nil
	})
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			return fmt.Errorf("cannot write %s: %v", pe.Path, pathErrorText(err))
		}
		return err
	}
	return nil
}

// Place moves the staging folder to the target's name, replacing what is
// there (checked again now, as files may have appeared while writing).
func (t *FolderTarget) Place() error {
	if err := t.checkReplaceable(); err != nil {
		return err
	}
	if _, err := os.Stat(t.Path); errors.Is(err, fs.ErrNotExist) {
		if err := os.Rename(t.Staging, t.Path); err != nil {
			return fmt.Errorf("cannot write %s: %v", t.Path, pathErrorText(err))
		}
		return nil
	}
	// os.Rename does not replace folders: the old one moves aside to a
	// fresh name first.
	old, err := os.MkdirTemp(filepath.Dir(t.Path), "."+filepath.Base(t.Path)+".*.old")
	if err == nil {
		err = os.Remove(old)
	}
	if err != nil {
		return fmt.Errorf("cannot write %s: %v", t.Path, pathErrorText(err))
	}
	if err := os.Rename(t.Path, old); err != nil {
		return fmt.Errorf("cannot write %s: %v", t.Path, pathErrorText(err))
	}
	if err := os.Rename(t.Staging, t.Path); err != nil {
		os.Rename(old, t.Path)
		return fmt.Errorf("cannot write %s: %v", t.Path, pathErrorText(err))
	}
	// old holds only what checkReplaceable accepted.
	return os.RemoveAll(old)
}

// Discard removes the staging folder: a failed write leaves the target as
// it was.
func (t *FolderTarget) Discard() {
	os.RemoveAll(t.Staging)
}
