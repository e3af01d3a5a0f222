package exec

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// spillFile holds batches an operator wrote out to free memory, as an
// Arrow IPC stream (LZ4-compressed) in a temporary file. The file is
// unlinked as soon as it is created, so it goes away when it is closed or
// the process dies, and nothing is ever left behind in the temp directory.
//
// Writes and reads go through a buffer: an IPC stream is written as many
// small pieces (each message's metadata, buffers and padding), about 50
// bytes a write, and unbuffered each was a system call — 10^8 of them for
// a GROUP BY of 10^8 groups.
type spillFile struct {
	f    *os.File
	buf  *bufio.Writer // nil once the file is read
	w    *ipc.Writer
	what string // the operator, for messages
}

// spillBufferSize is the write buffer of a spill file, and its read buffer.
// An operator may have a few hundred spill files written and not yet read
// (an aggregation's partitions, level by level), so it is kept small.
const spillBufferSize = 64 << 10

// newSpillFile creates a spill file for batches of schema in the temp
// directory; what names the operator in errors.
func newSpillFile(schema *arrow.Schema, mem memory.Allocator, what string) (*spillFile, error) {
	dir := TempDirectory()
	f, err := os.CreateTemp(dir, "lakesql-spill-*.arrow")
	if err != nil {
		return nil, fmt.Errorf("%s needs more than the memory limit and cannot spill to temp_directory %s: %w", what, dir, unwrapPathError(err))
	}
	os.Remove(f.Name())
	buf := bufio.NewWriterSize(f, spillBufferSize)
	w := ipc.NewWriter(buf, ipc.WithSchema(schema), ipc.WithAllocator(mem), ipc.WithLZ4())
	return &spillFile{f: f, buf: buf, w: w, what: what}, nil
}

// write appends a batch.
func (s *spillFile) write(b arrow.RecordBatch) error {
	if err := s.w.Write(b); err != nil {
		return fmt.Errorf("%s: spilling to temp_directory %s: %w", s.what, TempDirectory(), unwrapPathError(err))
	}
	return nil
}

// reader finishes writing (the first time) and returns a reader of the
// batches from the start; closing the spill file ends both.
func (s *spillFile) reader(mem memory.Allocator) (*ipc.Reader, error) {
	if s.buf != nil { // the first read: finish writing
		err := s.w.Close()
		if err == nil {
			err = s.buf.Flush()
		}
		if err != nil {
			return nil, fmt.Errorf("%s: spilling to temp_directory %s: %w", s.what, TempDirectory(), unwrapPathError(err))
		}
		s.buf = nil
	}
	if _, err := s.f.Seek(0, io.SeekStart); err != nil {
		return nil, fmt.Errorf("%s: reading back spilled rows: %w", s.what, unwrapPathError(err))
	}
	r, err := ipc.NewReader(bufio.NewReaderSize(s.f, spillBufferSize), ipc.WithAllocator(mem))
	if err != nil {
		return nil, fmt.Errorf("%s: reading back spilled rows: %w", s.what, err)
	}
	return r, nil
}

func (s *spillFile) close() { s.f.Close() }

// unwrapPathError drops the temporary file's name from an *os.PathError:
// the file is unlinked, so its name means nothing to the user.
func unwrapPathError(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
