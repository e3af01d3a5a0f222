package storage

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
)

// ErrCorruptFile is the kind of error for a data, delete or manifest file
// that exists but cannot be read as what it should be (a truncated Parquet
// file, a bad footer or page). A missing file keeps fs.ErrNotExist.
var ErrCorruptFile = errors.New("corrupt file")

// corruptFileError names the file and keeps both kinds: ErrCorruptFile and
// the reader's own error.
type corruptFileError struct {
	what, path string
	err        error
}

func (e *corruptFileError) Error() string { return e.what + " " + e.path + ": " + e.err.Error() }

func (e *corruptFileError) Unwrap() []error { return []error{ErrCorruptFile, e.err} }

// ErrSnapshotGone is the kind of error for a snapshot whose manifest list
// or manifests are missing: most often a concurrent expire_snapshots
// removed the snapshot after the statement loaded the table (the
// filesystem catalog has no lock to prevent that), and running the
// statement again reads the snapshot that is current now.
var ErrSnapshotGone = errors.New("snapshot files missing")

// snapshotFileError reports a missing manifest list or manifest in one
// line of lakesql's words instead of iceberg-go's, which names the path
// twice; other errors are wrapped as "read <what> <path>: …".
func snapshotFileError(what, path string, err error) error {
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%w: %s %s is gone; another process expired the snapshot this statement was reading, or deleted the file: run the statement again", ErrSnapshotGone, what, path)
	}
	return fmt.Errorf("read %s %s: %w", what, path, err)
}

// OneLine is a library's error message on one line: some (YAML's, the
// cloud SDKs', iceberg-go's scheme hints) span several. An Azure response
// error inside it is said as its request and status (azureResponseLine),
// what wraps it kept.
func OneLine(err error) string {
	msg := err.Error()
	var resp *azcore.ResponseError
	if errors.As(err, &resp) {
		if line, ok := azureResponseLine(resp); ok {
			if outer, found := strings.CutSuffix(msg, resp.Error()); found {
				msg = outer + line
			}
		}
	}
	return strings.Join(strings.Fields(msg), " ")
}
