package storage

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// ErrUnsafeDelete is the kind of error for a delete lakesql refuses: the
// path is not a regular file inside the folder it must stay in — a symlink
// (never followed, never deleted), a folder, or a file elsewhere (the files
// of a table registered from another warehouse stay where they are).
var ErrUnsafeDelete = errors.New("refusing to delete")

// LocalPath spells a local file:// location as a clean path.
func LocalPath(location string) string {
	if rest, ok := strings.CutPrefix(location, "file://"); ok {
		location = rest
	}
	return filepath.Clean(location)
}

// Within reports whether path is dir or lies below it, comparing the
// locations as written (file:// or plain paths).
func Within(path, dir string) bool {
	path, dir = LocalPath(path), strings.TrimRight(LocalPath(dir), "/")
	return path == dir || strings.HasPrefix(path, dir+"/")
}

// CheckRemovable returns nil when path may be deleted: it is a regular file
// (not a symlink) and the real path of its folder, with every symlink
// resolved, lies inside root (itself a real path). A file that does not
// exist returns fs.ErrNotExist.
func CheckRemovable(root, path string) error {
	info, err := os.Lstat(path)
	if err != nil {
		return err
	}
	if !info.Mode().IsRegular() {
		return fmt.Errorf("%w %s: not a regular file", ErrUnsafeDelete, path)
	}
	dir, err := filepath.EvalSymlinks(filepath.Dir(path))
	if err != nil {
		return err
	}
	if root == "" || !Within(dir, root) {
		return fmt.Errorf("%w %s: it is not inside %s", ErrUnsafeDelete, path, root)
	}
	return nil
}

// RealDir is the real path of a folder, with every symlink resolved.
func RealDir(dir string) (string, error) {
	abs, err := filepath.Abs(LocalPath(dir))
	if err != nil {
		return "", err
	}
	return filepath.EvalSymlinks(abs)
}

// RemoveEmptyDir deletes a folder inside the warehouse if it is empty; a
// symlink, a file or a folder that holds anything stays. On object storage
// a folder is only a key prefix, gone with its last object.
func (r *RemapIO) RemoveEmptyDir(name string) error {
	if IsObjectLocation(r.Resolve(name)) {
		return nil // object stores have no folders
	}
	path := LocalPath(r.Resolve(name))
	info, err := os.Lstat(path)
	if err != nil {
		return err
	}
	if !info.IsDir() {
		return fmt.Errorf("%w %s: not a folder", ErrUnsafeDelete, path)
	}
	if real, err := filepath.EvalSymlinks(path); err != nil || !Within(real, r.Root) {
		return fmt.Errorf("%w %s: it is not inside %s", ErrUnsafeDelete, path, r.Root)
	}
	return os.Remove(path)
}
