package storage

import (
	"bytes"
	"fmt"
	"math"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/parquet-go/parquet-go"
)

// unsignedRow is written by parquet-go with INT(8|16|32|64, false)
// annotations, as DuckDB writes UTINYINT … UBIGINT.
type unsignedRow struct {
	U8  uint8  `parquet:"u8"`
	U16 uint16 `parquet:"u16"`
	U32 uint32 `parquet:"u32"`
	U64 uint64 `parquet:"u64"`
}

// Unsigned values with the top bit set must not read as negative numbers,
// and their statistics must order them as the writer did.
func TestReadUnsignedIntegers(t *testing.T) {
	var buf bytes.Buffer
	w := parquet.NewGenericWriter[unsignedRow](&buf)
	rows := []unsignedRow{{1, 2, 3, 4}, {math.MaxUint8, math.MaxUint16, math.MaxUint32, math.MaxUint64}}
	if _, err := w.Write(rows); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	f := openBytes(t, buf.Bytes(), "mem://unsigned.parquet")
	cols, err := f.Columns()
	if err != nil {
		t.Fatal(err)
	}
	var types []string
	for _, c := range cols {
		types = append(types, c.Type.String())
	}
	if got, want := fmt.Sprint(types), "[int32 int32 int64 decimal(20, 0)]"; got != want {
		t.Fatalf("types = %s, want %s", got, want)
	}
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	got := readAll(t, f, cols, 10, mem)
	defer releaseAll(got)
	want := []string{"[1 255]", "[2 65535]", "[3 4294967295]", "[4 18446744073709551615]"}
	for i, w := range want {
		if got[i].String() != w {
			t.Errorf("column %s = %s, want %s", cols[i].Name, got[i], w)
		}
	}
	min, max, _, ok := f.ColumnStats(0, cols[2])
	if !ok || min != int64(3) || max != int64(math.MaxUint32) {
		t.Errorf("u32 stats = %v, %v, %v", min, max, ok)
	}
	min, max, _, ok = f.ColumnStats(0, cols[3])
	if !ok || min != decimal128.FromU64(4) || max != decimal128.FromU64(math.MaxUint64) {
		t.Errorf("u64 stats = %v, %v, %v", min, max, ok)
	}
}
