package lakesql

import icebergio "github.com/apache/iceberg-go/io"

// FileIO is the file system table functions (read_parquet, read_csv) read
// files through: the warehouse's, so location remaps apply to them too.
func (s *Session) FileIO() icebergio.IO { return s.wh.FS() }
