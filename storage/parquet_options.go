package storage

import (
	"fmt"
	"strconv"

	"github.com/apache/iceberg-go"
)

// ParquetOptionsFromProperties reads Iceberg's write.parquet.* table
// properties; absent ones keep their defaults.
func ParquetOptionsFromProperties(props iceberg.Properties) (ParquetWriterOptions, error) {
	opts := ParquetWriterOptions{Compression: props.Get("write.parquet.compression-codec", "zstd")}
	if _, err := compressionCodec(opts.Compression); err != nil {
		return opts, fmt.Errorf("table property write.parquet.compression-codec: %w", err)
	}
	sizes := []struct {
		key string
		set func(int64)
	}{
		{"write.parquet.row-group-size-rows", func(n int64) { opts.RowGroupRows = int(n) }},
		{"write.parquet.row-group-size-bytes", func(n int64) { opts.RowGroupBytes = n }},
		{"write.parquet.page-size-bytes", func(n int64) { opts.PageBytes = int(n) }},
		{"write.parquet.page-row-limit", func(n int64) { opts.PageRows = int(n) }},
		{"write.parquet.dict-size-bytes", func(n int64) { opts.DictBytes = n }},
	}
	for _, s := range sizes {
		v, ok := props[s.key]
		if !ok {
			continue
		}
		n, err := strconv.ParseInt(v, 10, 32)
		if err != nil || n <= 0 {
			return opts, fmt.Errorf("table property %s=%q is not a positive integer below 2^31", s.key, v)
		}
		s.set(n)
	}
	return opts, nil
}
