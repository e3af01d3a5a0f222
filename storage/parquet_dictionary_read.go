package storage

import (
	"fmt"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"
)

// A column read with ReadColumn.Dictionary comes out of a dictionary-encoded
// chunk as an Arrow Dictionary array: the chunk's dictionary page becomes
// the array's dictionary, each row its int32 code. A GROUP BY then works
// on the codes (exec's groupTable) instead of copying and hashing every
// row's string. A chunk whose writer fell back to PLAIN pages part way (as
// parquet-mr and ours do when the dictionary grows too large) is read as
// plain values from the first PLAIN page on, the rows before it included:
// the caller gets one array per chunk, of either form.

// DictionaryType is the Arrow type of a dictionary-encoded column of
// values of type t: int32 codes, as Parquet's dictionary indexes are.
func DictionaryType(t arrow.DataType) *arrow.DictionaryType {
	return &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: t}
}

// dictionaryReadable reports whether a column of type t read from file
// column c can come out as a Dictionary array.
func dictionaryReadable(c *parquet.Column, t arrow.DataType) bool {
	switch t.(type) {
	case *arrow.StringType, *arrow.BinaryType:
		return c.Type().Kind() == parquet.ByteArray
	}
	return false
}

// chunkHasDictionary reports whether a column chunk's metadata lists a
// dictionary encoding: without one every page is PLAIN.
func chunkHasDictionary(meta *format.ColumnMetaData) bool {
	return slices.ContainsFunc(meta.Encoding, func(e format.Encoding) bool {
		return e == format.RLEDictionary || e == format.PlainDictionary
	})
}

// newChunkDecoder picks the decoder of a flat column chunk of numRows
// output rows: dictionary codes when the caller asked for them and the
// chunk has a dictionary, else the column's values.
func (f *ParquetFile) newChunkDecoder(rg int, c *parquet.Column, col ReadColumn, numRows int, mem memory.Allocator) (columnDecoder, error) {
	if col.Dictionary && dictionaryReadable(c, col.Type) && c.MaxRepetitionLevel() == 0 &&
		chunkHasDictionary(&f.file.Metadata().RowGroups[rg].Columns[c.Index()].MetaData) {
		return newDictDecoder(col.Type, numRows, mem), nil
	}
	return newColumnDecoder(c, col.Type, numRows, mem)
}

// dictDecoder collects the dictionary codes of a BYTE_ARRAY chunk's rows;
// NULL rows get code 0 (the validity bitmap says they are NULL).
type dictDecoder struct {
	typ      arrow.DataType
	mem      memory.Allocator
	numRows  int
	codesBuf *memory.Buffer
	codes    []int32

	dict     parquet.Dictionary
	dictVals arrow.Array // the chunk's dictionary, copied out of its page
	dictOffs []uint32
	dictData []byte
	// plain, once a page is not dictionary encoded, decodes the rest; the
	// rows before it were written to it from their codes.
	plain *binaryDecoder
}

func newDictDecoder(typ arrow.DataType, numRows int, mem memory.Allocator) *dictDecoder {
	buf := zeroedBuffer(mem, numRows*arrow.Int32SizeBytes)
	return &dictDecoder{typ: typ, mem: mem, numRows: numRows, codesBuf: buf, codes: arrow.GetData[int32](buf.Bytes())}
}

func (d *dictDecoder) decodePage(p parquet.Page, rows pageRows) error {
	if d.plain == nil {
		dict := p.Dictionary()
		if dict == nil || (d.dict != nil && dict != d.dict) {
			if err := d.fallBack(rows.start); err != nil {
				return err
			}
		} else {
			return d.decodeCodes(p, dict, rows)
		}
	}
	return d.plain.decodePage(p, rows)
}

// decodeCodes writes the codes of a dictionary-encoded page.
func (d *dictDecoder) decodeCodes(p parquet.Page, dict parquet.Dictionary, rows pageRows) error {
	if d.dict == nil {
		dictData := dict.Page().Data()
		values, offs := dictData.ByteArray()
		d.dict = dict
		d.dictVals = byteArrays(d.typ, values, offs, d.mem)
		// The copy's offsets and bytes, which a fall back replays.
		bufs := d.dictVals.Data().Buffers()
		d.dictOffs = arrow.GetData[uint32](bufs[1].Bytes())
		d.dictData = bufs[2].Bytes()
	}
	data := p.Data()
	indexes := data.Int32()
	if err := checkIndexes(indexes, d.dictVals.Len()); err != nil {
		return err
	}
	if rows.sel != nil {
		if len(indexes) != rows.valid {
			return fmt.Errorf("page has %d values for %d non-null rows", len(indexes), rows.valid)
		}
		out := d.codes[rows.start : rows.start+len(rows.sel)]
		rows.gather(func(k, j int) {
			if j >= 0 {
				out[k] = indexes[j]
			} else {
				out[k] = 0
			}
		})
		return nil
	}
	return scatter(d.codes[rows.start:rows.start+rows.count], indexes, rows)
}

// fallBack switches to plain values at output row start: rows before it
// are written from their codes.
func (d *dictDecoder) fallBack(start int) error {
	d.plain = newBinaryDecoder(d.typ, d.numRows, d.mem)
	if start == 0 || d.dict == nil || d.dictVals.Len() == 0 {
		// No row before holds a value: their offsets stay 0.
		return nil
	}
	// NULL rows hold code 0, a valid index: their bytes are written but
	// the validity bitmap hides them.
	return d.plain.appendValues(d.dictData, d.dictOffs, d.codes[:start], pageRows{count: start, valid: start})
}

func (d *dictDecoder) finish(validity *memory.Buffer, nulls int) arrow.Array {
	if d.plain != nil {
		arr := d.plain.finish(validity, nulls)
		d.plain = nil
		d.release()
		return arr
	}
	if d.dictVals == nil {
		d.dictVals = array.MakeArrayOfNull(d.mem, d.typ, 0)
	}
	data := array.NewDataWithDictionary(DictionaryType(d.typ), d.numRows, []*memory.Buffer{validity, d.codesBuf}, nulls, 0, d.dictVals.Data().(*array.Data))
	d.release()
	if validity != nil {
		validity.Release()
	}
	defer data.Release()
	return array.MakeFromData(data)
}

func (d *dictDecoder) release() {
	if d.codesBuf != nil {
		d.codesBuf.Release()
		d.codesBuf = nil
	}
	if d.dictVals != nil {
		d.dictVals.Release()
		d.dictVals = nil
	}
	d.dictData, d.dictOffs = nil, nil
	if d.plain != nil {
		d.plain.release()
		d.plain = nil
	}
}

// byteArrays copies byte arrays (values delimited by n+1 offsets) into an
// Arrow array of type t, String or Binary.
func byteArrays(t arrow.DataType, values []byte, offs []uint32, mem memory.Allocator) arrow.Array {
	n := max(len(offs)-1, 0)
	offBuf := memory.NewResizableBuffer(mem)
	offBuf.Resize((n + 1) * arrow.Int32SizeBytes)
	out := arrow.GetData[int32](offBuf.Bytes())
	out[0] = 0
	var base uint32
	if n > 0 {
		base = offs[0]
	}
	for i := range n {
		out[i+1] = int32(offs[i+1] - base)
	}
	dataBuf := memory.NewResizableBuffer(mem)
	if n > 0 {
		dataBuf.Resize(int(offs[n] - base))
		copy(dataBuf.Bytes(), values[base:offs[n]])
	}
	data := array.NewData(t, n, []*memory.Buffer{nil, offBuf, dataBuf}, nil, 0, 0)
	offBuf.Release()
	dataBuf.Release()
	defer data.Release()
	return array.MakeFromData(data)
}

// DictionaryValues is a Dictionary array of byte arrays (as storage reads
// them) as an array of its values, NULLs kept: the one place codes become
// strings again, for storage's late filters and the aggregation's spill.
func DictionaryValues(d *array.Dictionary, mem memory.Allocator) arrow.Array {
	valueType := d.DataType().(*arrow.DictionaryType).ValueType
	if d.Dictionary().Len() == 0 {
		return array.MakeArrayOfNull(mem, valueType, d.Len()) // no row has a value
	}
	dict := d.Dictionary().(interface {
		arrow.Array
		ValueOffsets() []int32
		ValueBytes() []byte
	})
	offs, values := dict.ValueOffsets(), dict.ValueBytes()
	base := int32(0)
	if len(offs) > 0 {
		base = offs[0]
	}
	n := d.Len()
	total := 0
	for i := range n {
		if d.IsValid(i) {
			k := d.GetValueIndex(i)
			total += int(offs[k+1] - offs[k])
		}
	}
	offBuf := memory.NewResizableBuffer(mem)
	offBuf.Resize((n + 1) * arrow.Int32SizeBytes)
	out := arrow.GetData[int32](offBuf.Bytes())
	dataBuf := memory.NewResizableBuffer(mem)
	dataBuf.Resize(total)
	data := dataBuf.Bytes()
	size := int32(0)
	out[0] = 0
	for i := range n {
		if d.IsValid(i) {
			k := d.GetValueIndex(i)
			size += int32(copy(data[size:], values[offs[k]-base:offs[k+1]-base]))
		}
		out[i+1] = size
	}
	var validity *memory.Buffer
	if d.NullN() > 0 {
		validity = zeroedBuffer(mem, int(bitutil.BytesForBits(int64(n))))
		bitutil.CopyBitmap(d.NullBitmapBytes(), d.Data().Offset(), n, validity.Bytes(), 0)
		defer validity.Release()
	}
	arrData := array.NewData(valueType, n, []*memory.Buffer{validity, offBuf, dataBuf}, nil, d.NullN(), 0)
	offBuf.Release()
	dataBuf.Release()
	defer arrData.Release()
	return array.MakeFromData(arrData)
}
