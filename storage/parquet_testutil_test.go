package storage

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// writeParquet writes batches with the given columns and returns the file bytes.
func writeParquet(t testing.TB, cols []WriteColumn, opts ParquetWriterOptions, batches ...arrow.RecordBatch) ([]byte, FileMetrics) {
	t.Helper()
	var buf bytes.Buffer
	w, err := NewParquetWriter(&buf, cols, opts)
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range batches {
		if err := w.Write(b); err != nil {
			t.Fatal(err)
		}
	}
	m, err := w.Close()
	if err != nil {
		t.Fatal(err)
	}
	if m.FileSize != int64(buf.Len()) {
		t.Fatalf("FileSize = %d, file has %d bytes", m.FileSize, buf.Len())
	}
	return buf.Bytes(), m
}

func openBytes(t testing.TB, b []byte, path string) *ParquetFile {
	t.Helper()
	f, err := OpenParquet(bytes.NewReader(b), int64(len(b)), path)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func openFixture(t testing.TB, path string) *ParquetFile {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return openBytes(t, b, path)
}

// fixtureFiles lists the data files of a fixture table.
func fixtureFiles(t testing.TB, table string) []string {
	t.Helper()
	var files []string
	root := filepath.Join("..", "testdata", "fixtures", "iceberg", table, "data")
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && filepath.Ext(p) == ".parquet" {
			files = append(files, p)
		}
		return err
	})
	if err != nil || len(files) == 0 {
		t.Skipf("fixture %s not available: %v", table, err)
	}
	return files
}

// readAll reads every row group of f as one array per column.
func readAll(t testing.TB, f *ParquetFile, cols []ReadColumn, batchSize int, mem memory.Allocator) []arrow.Array {
	t.Helper()
	parts := make([][]arrow.Array, len(cols))
	for rg := range f.NumRowGroups() {
		it, err := f.ReadRowGroup(context.Background(), rg, cols, batchSize, mem)
		if err != nil {
			t.Fatal(err)
		}
		for {
			b, err := it.Next()
			if err != nil {
				t.Fatal(err)
			}
			if b == nil {
				break
			}
			if int(b.NumRows()) > batchSize {
				t.Fatalf("batch of %d rows exceeds batch size %d", b.NumRows(), batchSize)
			}
			for i := range cols {
				if b.Schema().Field(i).Name != cols[i].Name || !arrow.TypeEqual(b.Column(i).DataType(), cols[i].Type) {
					t.Fatalf("batch field %d is %s %s", i, b.Schema().Field(i).Name, b.Column(i).DataType())
				}
				c := b.Column(i)
				c.Retain()
				parts[i] = append(parts[i], c)
			}
			b.Release()
		}
		it.Close()
	}
	out := make([]arrow.Array, len(cols))
	for i, p := range parts {
		if len(p) == 0 {
			out[i] = array.MakeArrayOfNull(mem, cols[i].Type, 0)
			continue
		}
		a, err := array.Concatenate(p, mem)
		if err != nil {
			t.Fatal(err)
		}
		for _, x := range p {
			x.Release()
		}
		out[i] = a
	}
	return out
}

func releaseAll(arrs []arrow.Array) {
	for _, a := range arrs {
		a.Release()
	}
}
