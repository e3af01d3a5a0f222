package engine

import (
	"context"

	icebergio "github.com/apache/iceberg-go/io"

	"github.com/lakesql/lakesql/exec"
	"github.com/lakesql/lakesql/planner"
)

// FileIO is the file system table functions (read_parquet, read_csv) read
// files through: the warehouse's, so location remaps apply to them too.
func (s *Session) FileIO() icebergio.IO { return s.wh.FS() }

// FileSchema reads the columns of a file a table function names.
func (s *Session) FileSchema(_ context.Context, format planner.FileFormat, file planner.FileRef, csv planner.CSVOptions) ([]planner.FileField, error) {
	return exec.FileSchema(s.FileIO(), format, file, csv)
}
