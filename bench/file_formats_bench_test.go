package bench

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/lakesql/lakesql"
)

// BenchmarkFileFormats writes 10^6 rows of four columns with COPY to each
// file format once, then measures reading them back with FROM 'file' (a
// count and a sum, so every record is parsed). go test -bench FileFormats
func BenchmarkFileFormats(b *testing.B) {
	ctx := context.Background()
	dir := b.TempDir()
	s, err := lakesql.Open(ctx, lakesql.Options{Warehouse: filepath.Join(dir, "wh")})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	run := func(q string) {
		res, err := s.Exec(ctx, q)
		if err != nil {
			b.Fatal(err)
		}
		for {
			batch, err := res.Next(ctx)
			if err != nil {
				b.Fatal(err)
			}
			if batch == nil {
				break
			}
			batch.Release()
		}
		res.Close()
	}
	const rows = "SELECT x AS id, x * 1.5 AS v, 'name' || CAST(x % 100 AS STRING) AS s, x % 2 = 0 AS ok FROM range(1000000) AS r(x)"
	for _, ext := range []string{"parquet", "csv", "json"} {
		path := filepath.Join(dir, "rows."+ext)
		run(fmt.Sprintf("COPY (%s) TO '%s'", rows, path))
		b.Run("read_"+ext, func(b *testing.B) {
			for b.Loop() {
				run(fmt.Sprintf("SELECT count(*), sum(v) FROM '%s'", path))
			}
		})
	}
}
