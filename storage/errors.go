package storage

import "errors"

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
