package storage

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"
	"slices"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/extensions"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/deprecated"
	"github.com/parquet-go/parquet-go/encoding"
	"github.com/parquet-go/parquet-go/format"
)

// This file turns Parquet pages into Arrow buffers. Pages are consumed through
// parquet-go's typed page data (page.Data()): plain pages are used in place,
// dictionary pages are resolved against a dictionary decoded once per column
// chunk. Output buffers are sized for the whole row group up front and each
// page's non-null values are scattered to their rows by definition level.

// pageRows locates a page inside the row group being decoded.
type pageRows struct {
	start, count int
	valid        int    // rows with a value (count minus nulls)
	defs         []byte // definition levels; empty for required columns
	maxDef       byte
	// sel, when not nil, lists the page rows (ascending, from 0) to decode;
	// they go to output rows start, start+1, … (late materialization).
	sel []int32
}

// gather calls fn for each selected row: k is its output row (from 0 within
// the page), j the index of its value among the page's dense values, or -1
// when the row is NULL.
func (r pageRows) gather(fn func(k, j int)) {
	if len(r.defs) == 0 || r.valid == r.count {
		for k, i := range r.sel {
			fn(k, int(i))
		}
		return
	}
	j, next := 0, 0 // dense index of row next
	for k, i := range r.sel {
		for ; next < int(i); next++ {
			if r.defs[next] == r.maxDef {
				j++
			}
		}
		if r.defs[i] == r.maxDef {
			fn(k, j)
		} else {
			fn(k, -1)
		}
	}
}

// columnDecoder accumulates the pages of one column chunk into an Arrow array.
type columnDecoder interface {
	decodePage(p parquet.Page, rows pageRows) error
	// finish builds the array; it takes ownership of the validity bitmap.
	finish(validity *memory.Buffer, nulls int) arrow.Array
	// release frees the buffers of a decoder that will not be finished.
	release()
}

// validity builds a column chunk's validity bitmap from definition levels.
type validity struct {
	maxDef byte
	buf    *memory.Buffer // nil for required columns
	bits   []byte
	nulls  int
}

func newValidity(c *parquet.Column, numRows int, mem memory.Allocator) *validity {
	v := &validity{maxDef: byte(c.MaxDefinitionLevel())}
	if v.maxDef > 0 {
		v.buf = zeroedBuffer(mem, int(bitutil.BytesForBits(int64(numRows))))
		v.bits = v.buf.Bytes()
	}
	return v
}

// add records the validity of rows [start, start+count) and returns how many
// of them hold a value.
func (v *validity) add(start, count int, defs []byte) int {
	if v.buf == nil {
		return count
	}
	if len(defs) == 0 {
		bitutil.SetBitsTo(v.bits, int64(start), int64(count), true)
		return count
	}
	valid, i := 0, 0
	set := func(i int) {
		if defs[i] == v.maxDef {
			bitutil.SetBit(v.bits, start+i)
			valid++
		}
	}
	for ; i < len(defs) && (start+i)%8 != 0; i++ {
		set(i)
	}
	// A whole bitmap byte per 8 levels, without branches.
	for ; i+8 <= len(defs); i += 8 {
		d, m := defs[i:i+8:i+8], v.maxDef
		b := isLevel(d[0], m) | isLevel(d[1], m)<<1 | isLevel(d[2], m)<<2 | isLevel(d[3], m)<<3 |
			isLevel(d[4], m)<<4 | isLevel(d[5], m)<<5 | isLevel(d[6], m)<<6 | isLevel(d[7], m)<<7
		v.bits[(start+i)/8] = b
		valid += bits.OnesCount8(b)
	}
	for ; i < len(defs); i++ {
		set(i)
	}
	v.nulls += count - valid
	return valid
}

// isLevel is 1 when d == m, else 0.
func isLevel(d, m byte) byte { return byte((uint32(d^m) - 1) >> 31) }

// addSelected records the validity of the selected rows sel of a page with
// definition levels defs, written to rows start, start+1, ….
func (v *validity) addSelected(start int, defs []byte, sel []int32) {
	if v.buf == nil {
		return
	}
	if len(defs) == 0 {
		bitutil.SetBitsTo(v.bits, int64(start), int64(len(sel)), true)
		return
	}
	for k, i := range sel {
		if defs[i] == v.maxDef {
			bitutil.SetBit(v.bits, start+k)
		} else {
			v.nulls++
		}
	}
}

// finish returns the bitmap, or nil when no row is null (Arrow's cheaper form).
func (v *validity) finish() (*memory.Buffer, int) {
	if v.nulls == 0 {
		v.release()
		return nil, 0
	}
	return v.buf, v.nulls
}

func (v *validity) release() {
	if v.buf != nil {
		v.buf.Release()
		v.buf = nil
	}
}

// valueSource yields the dense (non-null) values of a page converted to the
// Arrow storage type T.
type valueSource[T any] struct {
	// decode converts n plain values of the column's physical type. When
	// identity is set it returns a view of v instead of appending to dst.
	decode   func(v *encoding.Values, n int, dst []T) ([]T, error)
	identity bool
	// pick, when set, converts only the plain values at dense positions js
	// (ascending) of a page holding n, appending them to dst.
	pick func(v *encoding.Values, n int, js []int32, dst []T) ([]T, error)

	dict     parquet.Dictionary // dictionary that dictVals was decoded from
	dictVals []T
	scratch  []T
}

// valuesInto is values for a page without nulls whose n values go to out
// (len(out) == n): converting sources write there directly.
func (s *valueSource[T]) valuesInto(p parquet.Page, n int, out []T) error {
	if p.Dictionary() != nil {
		indexes, err := s.dictIndexes(p)
		if err != nil {
			return err
		}
		if len(indexes) != n {
			return fmt.Errorf("page has %d values for %d non-null rows", len(indexes), n)
		}
		for i, j := range indexes {
			out[i] = s.dictVals[j]
		}
		return nil
	}
	if s.identity {
		vals, err := s.values(p, n)
		if err != nil {
			return err
		}
		if len(vals) != n {
			return fmt.Errorf("page has %d values for %d non-null rows", len(vals), n)
		}
		copy(out, vals)
		return nil
	}
	data := p.Data()
	vals, err := s.decode(&data, n, out[:0])
	if err != nil {
		return err
	}
	if len(vals) != n {
		return fmt.Errorf("page has %d values for %d non-null rows", len(vals), n)
	}
	return nil
}

func (s *valueSource[T]) values(p parquet.Page, n int) ([]T, error) {
	if p.Dictionary() == nil {
		data := p.Data()
		vals, err := s.decode(&data, n, s.scratch[:0])
		if err == nil && !s.identity {
			s.scratch = vals
		}
		return vals, err
	}
	indexes, err := s.dictIndexes(p)
	if err != nil {
		return nil, err
	}
	out := slices.Grow(s.scratch[:0], len(indexes))[:len(indexes)]
	for i, j := range indexes {
		out[i] = s.dictVals[j]
	}
	s.scratch = out
	return out, nil
}

// dictIndexes returns the dictionary indexes of a dictionary-encoded page,
// checked against its dictionary, which is converted once per chunk into
// s.dictVals.
func (s *valueSource[T]) dictIndexes(p parquet.Page) ([]int32, error) {
	if dict := p.Dictionary(); dict != s.dict {
		dictData := dict.Page().Data()
		vals, err := s.decode(&dictData, dict.Len(), nil)
		if err != nil {
			return nil, fmt.Errorf("decode dictionary: %w", err)
		}
		s.dict, s.dictVals = dict, vals
	}
	data := p.Data()
	indexes := data.Int32()
	if err := checkIndexes(indexes, len(s.dictVals)); err != nil {
		return nil, err
	}
	return indexes, nil
}

func checkIndexes(indexes []int32, dictLen int) error {
	for _, i := range indexes {
		if uint32(i) >= uint32(dictLen) {
			return fmt.Errorf("dictionary index %d out of range [0,%d)", i, dictLen)
		}
	}
	return nil
}

// scatter copies dense values to the rows of dst whose definition level is
// maxDef; null rows keep their zero value.
func scatter[T arrow.FixedWidthType](dst, dense []T, rows pageRows) error {
	if len(dense) != rows.valid {
		return fmt.Errorf("page has %d values for %d non-null rows", len(dense), rows.valid)
	}
	if len(rows.defs) == 0 || rows.valid == rows.count {
		copy(dst, dense)
		return nil
	}
	if rows.valid == 0 {
		return nil
	}
	// NULLs scattered at random defeat the branch predictor: values of
	// whole words (dictionary codes, integers, decimals) are written
	// without a branch per row.
	var zero T
	switch unsafe.Sizeof(zero) {
	case 4:
		scatterWords(wordsOf[T, uint32](dst), wordsOf[T, uint32](dense), 1, rows.defs, rows.maxDef)
		return nil
	case 8:
		scatterWords(wordsOf[T, uint64](dst), wordsOf[T, uint64](dense), 1, rows.defs, rows.maxDef)
		return nil
	case 16:
		scatterWords(wordsOf[T, uint64](dst), wordsOf[T, uint64](dense), 2, rows.defs, rows.maxDef)
		return nil
	}
	j := 0
	for i, d := range rows.defs {
		if d == rows.maxDef {
			dst[i] = dense[j]
			j++
		}
	}
	return nil
}

// scatterWords is scatter for values of width words each: every row is
// written, its value masked to zero when it is NULL. dense is not empty.
func scatterWords[W uint32 | uint64](dst, dense []W, width int, defs []byte, maxDef byte) {
	last := len(dense)/width - 1
	j := 0
	for i, d := range defs {
		v := isLevel(d, maxDef)
		m := -W(v)
		k := min(j, last) * width
		if width == 1 {
			dst[i] = dense[k] & m
		} else {
			dst[2*i], dst[2*i+1] = dense[k]&m, dense[k+1]&m
		}
		j += int(v)
	}
}

// wordsOf views values of T as words of W (T's size a multiple of W's,
// and T at least as aligned: Arrow buffers and Go slices of T are).
func wordsOf[T arrow.FixedWidthType, W uint32 | uint64](s []T) []W {
	if len(s) == 0 {
		return nil
	}
	var t T
	var w W
	return unsafe.Slice((*W)(unsafe.Pointer(&s[0])), len(s)*int(unsafe.Sizeof(t)/unsafe.Sizeof(w)))
}

// fixedDecoder decodes into a fixed-width Arrow buffer of T.
type fixedDecoder[T arrow.FixedWidthType] struct {
	typ arrow.DataType
	buf *memory.Buffer
	out []T
	src valueSource[T]
}

func newFixedDecoder[T arrow.FixedWidthType](typ arrow.DataType, numRows int, mem memory.Allocator, src valueSource[T]) *fixedDecoder[T] {
	buf := zeroedBuffer(mem, numRows*int(typ.(arrow.FixedWidthDataType).Bytes()))
	return &fixedDecoder[T]{typ: typ, buf: buf, out: arrow.GetData[T](buf.Bytes()), src: src}
}

func (d *fixedDecoder[T]) decodePage(p parquet.Page, rows pageRows) error {
	if rows.sel == nil && rows.valid == rows.count {
		return d.src.valuesInto(p, rows.count, d.out[rows.start:rows.start+rows.count])
	}
	if rows.sel != nil && d.src.pick != nil && p.Dictionary() == nil {
		return d.pickPage(p, rows)
	}
	dense, err := d.src.values(p, rows.valid)
	if err != nil {
		return err
	}
	if rows.sel != nil {
		if len(dense) != rows.valid {
			return fmt.Errorf("page has %d values for %d non-null rows", len(dense), rows.valid)
		}
		out := d.out[rows.start : rows.start+len(rows.sel)]
		var zero T
		rows.gather(func(k, j int) {
			if j >= 0 {
				out[k] = dense[j]
			} else {
				out[k] = zero
			}
		})
		return nil
	}
	return scatter(d.out[rows.start:rows.start+rows.count], dense, rows)
}

// pickPage converts only the selected rows' values of a plain page.
func (d *fixedDecoder[T]) pickPage(p parquet.Page, rows pageRows) error {
	var js []int32
	rows.gather(func(_, j int) {
		if j >= 0 {
			js = append(js, int32(j))
		}
	})
	data := p.Data()
	vals, err := d.src.pick(&data, rows.valid, js, make([]T, 0, len(js)))
	if err != nil {
		return err
	}
	out := d.out[rows.start : rows.start+len(rows.sel)]
	var zero T
	m := 0
	rows.gather(func(k, j int) {
		if j >= 0 {
			out[k] = vals[m]
			m++
		} else {
			out[k] = zero
		}
	})
	return nil
}

func (d *fixedDecoder[T]) finish(validity *memory.Buffer, nulls int) arrow.Array {
	data := array.NewData(d.typ, len(d.out), []*memory.Buffer{validity, d.buf}, nil, nulls, 0)
	d.release()
	if validity != nil {
		validity.Release()
	}
	defer data.Release()
	return array.MakeFromData(data)
}

func (d *fixedDecoder[T]) release() { d.buf.Release() }

// boolDecoder decodes BOOLEAN columns into an Arrow bitmap.
type boolDecoder struct {
	buf  *memory.Buffer
	bits []byte
	n    int
	src  valueSource[bool]
}

func newBoolDecoder(numRows int, mem memory.Allocator) *boolDecoder {
	buf := zeroedBuffer(mem, int(bitutil.BytesForBits(int64(numRows))))
	return &boolDecoder{buf: buf, bits: buf.Bytes(), n: numRows, src: valueSource[bool]{decode: decodeBools}}
}

func decodeBools(v *encoding.Values, n int, dst []bool) ([]bool, error) {
	bits := v.Boolean()
	if len(bits) < int(bitutil.BytesForBits(int64(n))) {
		return nil, fmt.Errorf("boolean page holds fewer than %d values", n)
	}
	for i := range n {
		dst = append(dst, bitutil.BitIsSet(bits, i))
	}
	return dst, nil
}

func (d *boolDecoder) decodePage(p parquet.Page, rows pageRows) error {
	dense, err := d.src.values(p, rows.valid)
	if err != nil {
		return err
	}
	if len(dense) != rows.valid {
		return fmt.Errorf("page has %d values for %d non-null rows", len(dense), rows.valid)
	}
	if rows.sel != nil {
		rows.gather(func(k, j int) {
			bitutil.SetBitTo(d.bits, rows.start+k, j >= 0 && dense[j])
		})
		return nil
	}
	j := 0
	for i := range rows.count {
		if len(rows.defs) == 0 || rows.defs[i] == rows.maxDef {
			bitutil.SetBitTo(d.bits, rows.start+i, dense[j])
			j++
		}
	}
	return nil
}

func (d *boolDecoder) finish(validity *memory.Buffer, nulls int) arrow.Array {
	data := array.NewData(arrow.FixedWidthTypes.Boolean, d.n, []*memory.Buffer{validity, d.buf}, nil, nulls, 0)
	d.release()
	if validity != nil {
		validity.Release()
	}
	defer data.Release()
	return array.MakeFromData(data)
}

func (d *boolDecoder) release() { d.buf.Release() }

// binaryDecoder decodes BYTE_ARRAY columns into Arrow String or Binary arrays.
// Parquet-go's byte array pages already use Arrow's layout (values + n+1
// offsets), so plain pages are appended with one copy and rebased offsets.
type binaryDecoder struct {
	typ     arrow.DataType
	offBuf  *memory.Buffer
	offsets []int32
	data    *memory.Buffer

	dict     parquet.Dictionary
	dictData []byte
	dictOffs []uint32
}

func newBinaryDecoder(typ arrow.DataType, numRows int, mem memory.Allocator) *binaryDecoder {
	offBuf := memory.NewResizableBuffer(mem)
	offBuf.Resize((numRows + 1) * arrow.Int32SizeBytes)
	offsets := arrow.GetData[int32](offBuf.Bytes())
	clear(offsets)
	return &binaryDecoder{typ: typ, offBuf: offBuf, offsets: offsets, data: memory.NewResizableBuffer(mem)}
}

func (d *binaryDecoder) decodePage(p parquet.Page, rows pageRows) error {
	values, offs, indexes, err := d.pageValues(p)
	if err != nil {
		return err
	}
	return d.appendValues(values, offs, indexes, rows)
}

// appendValues writes the rows of a page whose byte arrays are values
// delimited by offs, indexed by indexes when dictionary encoded (nil: in
// order).
func (d *binaryDecoder) appendValues(values []byte, offs []uint32, indexes []int32, rows pageRows) error {
	n := len(indexes)
	if indexes == nil {
		n = max(len(offs)-1, 0)
	}
	if n != rows.valid {
		return fmt.Errorf("page has %d values for %d non-null rows", n, rows.valid)
	}
	if rows.sel != nil {
		return d.gatherPage(values, offs, indexes, rows)
	}
	if err := d.reserve(values, offs, indexes, rows.start+rows.count); err != nil {
		return err
	}
	// Appends go straight into the reserved buffer; its length is set once.
	buf, size := d.data.Buf(), d.data.Len()
	if indexes == nil && n > 0 {
		// Plain values are contiguous: one copy, and each row's end offset
		// is that of the last value at or before it, shifted.
		base := int32(size) - int32(offs[0])
		size += copy(buf[size:], values[offs[0]:offs[n]])
		out := d.offsets[rows.start+1 : rows.start+rows.count+1]
		if len(rows.defs) == 0 || n == rows.count {
			for i := range out {
				out[i] = base + int32(offs[i+1])
			}
		} else {
			j := 0
			for i, def := range rows.defs[:rows.count] {
				if def == rows.maxDef {
					j++
				}
				out[i] = base + int32(offs[j])
			}
		}
		d.data.ResizeNoShrink(size)
		return nil
	}
	j := 0
	for i := range rows.count {
		if len(rows.defs) == 0 || rows.defs[i] == rows.maxDef {
			k := j
			if indexes != nil {
				k = int(indexes[j])
			}
			size += copy(buf[size:], values[offs[k]:offs[k+1]])
			j++
		}
		d.offsets[rows.start+i+1] = int32(size)
	}
	d.data.ResizeNoShrink(size)
	return nil
}

// gatherPage appends the selected rows of a page.
func (d *binaryDecoder) gatherPage(values []byte, offs []uint32, indexes []int32, rows pageRows) error {
	key := func(j int) int {
		if indexes != nil {
			return int(indexes[j])
		}
		return j
	}
	need := 0
	rows.gather(func(_, j int) {
		if j >= 0 {
			k := key(j)
			need += int(offs[k+1] - offs[k])
		}
	})
	size := d.data.Len()
	if size+need > math.MaxInt32 {
		return fmt.Errorf("column chunk holds more than 2 GiB of byte arrays")
	}
	if size+need > d.data.Cap() {
		d.data.Reserve(max(size+need, 2*d.data.Cap()))
	}
	buf := d.data.Buf()
	rows.gather(func(k, j int) {
		if j >= 0 {
			kk := key(j)
			size += copy(buf[size:], values[offs[kk]:offs[kk+1]])
		}
		d.offsets[rows.start+k+1] = int32(size)
	})
	d.data.ResizeNoShrink(size)
	return nil
}

// reserve makes room in the data buffer for the values a page refers to.
// reserve makes room for the values of a page that ends at row end. The
// buffer is sized for the whole chunk from the bytes per row so far, so it
// grows about once rather than doubling through a chunk of long strings.
func (d *binaryDecoder) reserve(values []byte, offs []uint32, indexes []int32, end int) error {
	need := len(values)
	if indexes != nil {
		need = 0
		for _, k := range indexes {
			need += int(offs[k+1] - offs[k])
		}
	}
	size := d.data.Len()
	if size+need > math.MaxInt32 {
		return fmt.Errorf("column chunk holds more than 2 GiB of byte arrays")
	}
	if size+need > d.data.Cap() {
		rows := len(d.offsets) - 1
		projected := int(float64(size+need) / float64(max(end, 1)) * float64(rows) * 1.05)
		// Growing by half at least keeps a poor projection linear.
		d.data.Reserve(min(max(size+need, projected, d.data.Cap()*3/2), math.MaxInt32))
	}
	return nil
}

// pageValues returns the byte arrays a page refers to and, for dictionary
// pages, the indexes into them.
func (d *binaryDecoder) pageValues(p parquet.Page) (values []byte, offs []uint32, indexes []int32, err error) {
	dict := p.Dictionary()
	if dict == nil {
		data := p.Data()
		values, offs = data.ByteArray()
		return values, offs, nil, nil
	}
	if dict != d.dict {
		dictData := dict.Page().Data()
		d.dict = dict
		d.dictData, d.dictOffs = dictData.ByteArray()
	}
	data := p.Data()
	indexes = data.Int32()
	if err := checkIndexes(indexes, max(len(d.dictOffs)-1, 0)); err != nil {
		return nil, nil, nil, err
	}
	return d.dictData, d.dictOffs, indexes, nil
}

func (d *binaryDecoder) finish(validity *memory.Buffer, nulls int) arrow.Array {
	data := array.NewData(d.typ, len(d.offsets)-1, []*memory.Buffer{validity, d.offBuf, d.data}, nil, nulls, 0)
	d.release()
	if validity != nil {
		validity.Release()
	}
	defer data.Release()
	return array.MakeFromData(data)
}

func (d *binaryDecoder) release() {
	d.offBuf.Release()
	d.data.Release()
}

// fixedBytesDecoder decodes FIXED_LEN_BYTE_ARRAY columns into Arrow
// FixedSizeBinary storage, optionally wrapped in an extension type (UUID).
type fixedBytesDecoder struct {
	typ   arrow.DataType // the requested type, possibly an extension type
	width int
	buf   *memory.Buffer
	out   []byte

	dict     parquet.Dictionary
	dictData []byte
	scratch  []byte
}

func newFixedBytesDecoder(typ arrow.DataType, width, numRows int, mem memory.Allocator) *fixedBytesDecoder {
	buf := zeroedBuffer(mem, numRows*width)
	return &fixedBytesDecoder{typ: typ, width: width, buf: buf, out: buf.Bytes()}
}

func (d *fixedBytesDecoder) decodePage(p parquet.Page, rows pageRows) error {
	dense, err := d.pageValues(p)
	if err != nil {
		return err
	}
	w := d.width
	if len(dense) != rows.valid*w {
		return fmt.Errorf("page has %d bytes for %d non-null rows of width %d", len(dense), rows.valid, w)
	}
	if rows.sel != nil {
		out := d.out[rows.start*w : (rows.start+len(rows.sel))*w]
		rows.gather(func(k, j int) {
			if j >= 0 {
				copy(out[k*w:(k+1)*w], dense[j*w:(j+1)*w])
			} else {
				clear(out[k*w : (k+1)*w])
			}
		})
		return nil
	}
	out := d.out[rows.start*w : (rows.start+rows.count)*w]
	if len(rows.defs) == 0 || rows.valid == rows.count {
		copy(out, dense)
		return nil
	}
	j := 0
	for i, def := range rows.defs {
		if def == rows.maxDef {
			copy(out[i*w:(i+1)*w], dense[j*w:(j+1)*w])
			j++
		}
	}
	return nil
}

// pageValues returns the page's dense values, concatenated.
func (d *fixedBytesDecoder) pageValues(p parquet.Page) ([]byte, error) {
	dict := p.Dictionary()
	if dict == nil {
		// Raw data rather than FixedLenByteArray(): 16-byte types such as
		// UUID are exposed by parquet-go as 128-bit values of the same layout.
		values := p.Data()
		data, _ := values.Data()
		return data, nil
	}
	if dict != d.dict {
		d.dict = dict
		dictData := dict.Page().Data()
		d.dictData, _ = dictData.Data()
	}
	data := p.Data()
	indexes := data.Int32()
	if err := checkIndexes(indexes, len(d.dictData)/d.width); err != nil {
		return nil, err
	}
	w := d.width
	out := d.scratch[:0]
	for _, i := range indexes {
		out = append(out, d.dictData[int(i)*w:(int(i)+1)*w]...)
	}
	d.scratch = out
	return out, nil
}

func (d *fixedBytesDecoder) finish(validity *memory.Buffer, nulls int) arrow.Array {
	n := len(d.out) / d.width
	storageType := d.typ
	ext, isExt := d.typ.(arrow.ExtensionType)
	if isExt {
		storageType = ext.StorageType()
	}
	data := array.NewData(storageType, n, []*memory.Buffer{validity, d.buf}, nil, nulls, 0)
	d.release()
	if validity != nil {
		validity.Release()
	}
	defer data.Release()
	storage := array.MakeFromData(data)
	if !isExt {
		return storage
	}
	defer storage.Release()
	return array.NewExtensionArrayWithStorage(ext, storage)
}

func (d *fixedBytesDecoder) release() { d.buf.Release() }

// newColumnDecoder picks the decoder converting the file column c to want.
func newColumnDecoder(c *parquet.Column, want arrow.DataType, numRows int, mem memory.Allocator) (columnDecoder, error) {
	if c.MaxRepetitionLevel() > 0 {
		return nil, fmt.Errorf("repeated column %s is read by readNested, not as a flat column", c.Name())
	}
	return newLeafDecoder(c, want, numRows, mem)
}

// newLeafDecoder is newColumnDecoder for any leaf, also one under a list or
// map: numSlots is then the chunk's number of level entries.
func newLeafDecoder(c *parquet.Column, want arrow.DataType, numSlots int, mem memory.Allocator) (columnDecoder, error) {
	numRows := numSlots
	typ := c.Type()
	kind := typ.Kind()
	mismatch := fmt.Errorf("cannot read parquet %s column %s as %s", typeName(typ), c.Name(), want)
	switch want := want.(type) {
	case *arrow.BooleanType:
		if kind == parquet.Boolean {
			return newBoolDecoder(numRows, mem), nil
		}
	case *arrow.Int32Type, *arrow.Date32Type:
		if kind == parquet.Int32 {
			return newFixedDecoder(want, numRows, mem, sameValues((*encoding.Values).Int32)), nil
		}
	case *arrow.Int64Type:
		switch kind {
		case parquet.Int32:
			if unsignedInt(typ) {
				return newFixedDecoder(want, numRows, mem, convertedValues((*encoding.Values).Int32, zeroExtend)), nil
			}
			return newFixedDecoder(want, numRows, mem, convertedValues((*encoding.Values).Int32, widen[int32, int64])), nil
		case parquet.Int64:
			return newFixedDecoder(want, numRows, mem, sameValues((*encoding.Values).Int64)), nil
		}
	case *arrow.Float32Type:
		if kind == parquet.Float {
			return newFixedDecoder(want, numRows, mem, sameValues((*encoding.Values).Float)), nil
		}
	case *arrow.Float64Type:
		switch kind {
		case parquet.Float:
			return newFixedDecoder(want, numRows, mem, convertedValues((*encoding.Values).Float, widen[float32, float64])), nil
		case parquet.Double:
			return newFixedDecoder(want, numRows, mem, sameValues((*encoding.Values).Double)), nil
		}
	case *arrow.Time64Type:
		if src, ok := temporalSource(typ, want.Unit); ok {
			return newFixedDecoder(want, numRows, mem, src), nil
		}
	case *arrow.TimestampType:
		if src, ok := temporalSource(typ, want.Unit); ok {
			return newFixedDecoder(want, numRows, mem, src), nil
		}
	case *arrow.Decimal128Type:
		src, err := decimalSource(c, want)
		if err != nil {
			return nil, err
		}
		return newFixedDecoder(want, numRows, mem, src), nil
	case *arrow.StringType, *arrow.BinaryType:
		if kind == parquet.ByteArray {
			return newBinaryDecoder(want, numRows, mem), nil
		}
	case *arrow.MonthDayNanoIntervalType:
		if isParquetInterval(typ) {
			return newFixedDecoder(want, numRows, mem, fixedBytesValues(12, intervalFromParquet)), nil
		}
	case *arrow.FixedSizeBinaryType:
		if kind == parquet.FixedLenByteArray && typ.Length() == want.ByteWidth {
			return newFixedBytesDecoder(want, want.ByteWidth, numRows, mem), nil
		}
	case *extensions.UUIDType:
		if kind == parquet.FixedLenByteArray && typ.Length() == 16 {
			return newFixedBytesDecoder(want, 16, numRows, mem), nil
		}
	}
	return nil, mismatch
}

func typeName(t parquet.Type) string {
	if lt := t.LogicalType(); lt != nil && lt.Value != nil {
		return fmt.Sprintf("%s (%s)", t.Kind(), lt)
	}
	return t.Kind().String()
}

// sameValues reads a physical type stored unchanged in Arrow.
func sameValues[T any](get func(*encoding.Values) []T) valueSource[T] {
	return valueSource[T]{
		identity: true,
		decode: func(v *encoding.Values, n int, _ []T) ([]T, error) {
			vals := get(v)
			if len(vals) < n {
				return nil, fmt.Errorf("page holds %d values, expected %d", len(vals), n)
			}
			return vals[:n], nil
		},
	}
}

// convertedValues reads a physical type P converted value by value to T.
func convertedValues[P, T any](get func(*encoding.Values) []P, conv func(P) T) valueSource[T] {
	return valueSource[T]{
		decode: func(v *encoding.Values, n int, dst []T) ([]T, error) {
			vals := get(v)
			if len(vals) < n {
				return nil, fmt.Errorf("page holds %d values, expected %d", len(vals), n)
			}
			if cap(dst)-len(dst) < n {
				dst = slices.Grow(dst, n)
			}
			for _, x := range vals[:n] {
				dst = append(dst, conv(x))
			}
			return dst, nil
		},
		pick: func(v *encoding.Values, n int, js []int32, dst []T) ([]T, error) {
			vals := get(v)
			if len(vals) < n {
				return nil, fmt.Errorf("page holds %d values, expected %d", len(vals), n)
			}
			for _, j := range js {
				if int(j) >= n {
					return nil, fmt.Errorf("value %d of a page holding %d", j, n)
				}
				dst = append(dst, conv(vals[j]))
			}
			return dst, nil
		},
	}
}

func widen[P int32 | float32, T int64 | float64](x P) T { return T(x) }

// zeroExtend widens an unsigned 32-bit value stored in an INT32.
func zeroExtend(x int32) int64 { return int64(uint32(x)) }

// unsignedDecimal is an unsigned 64-bit value stored in an INT64.
func unsignedDecimal(x int64) decimal128.Num { return decimal128.New(0, uint64(x)) }

// fileTimeUnit returns the unit of a TIME or TIMESTAMP column.
func fileTimeUnit(t parquet.Type) (arrow.TimeUnit, bool) {
	if lt := t.LogicalType(); lt != nil {
		switch v := lt.Value.(type) {
		case *format.TimestampType:
			return timeUnitOf(v.Unit), true
		case *format.TimeType:
			return timeUnitOf(v.Unit), true
		}
	}
	if ct := t.ConvertedType(); ct != nil {
		switch *ct {
		case deprecated.TimestampMillis, deprecated.TimeMillis:
			return arrow.Millisecond, true
		case deprecated.TimestampMicros, deprecated.TimeMicros:
			return arrow.Microsecond, true
		}
	}
	return 0, false
}

func timeUnitOf(u format.TimeUnit) arrow.TimeUnit {
	switch u.Value.(type) {
	case *format.MilliSeconds:
		return arrow.Millisecond
	case *format.NanoSeconds:
		return arrow.Nanosecond
	default:
		return arrow.Microsecond
	}
}

// temporalSource reads TIME/TIMESTAMP columns (INT32 millis, INT64 any unit,
// legacy INT96 nanos) converted to the requested unit.
func temporalSource(t parquet.Type, want arrow.TimeUnit) (valueSource[int64], bool) {
	switch t.Kind() {
	case parquet.Int96:
		conv := unitConverter(arrow.Nanosecond, want)
		return convertedValues((*encoding.Values).Int96, func(v deprecated.Int96) int64 { return conv(int96Nanos(v)) }), true
	case parquet.Int32:
		from, ok := fileTimeUnit(t)
		if !ok || from != arrow.Millisecond {
			return valueSource[int64]{}, false
		}
		conv := unitConverter(from, want)
		return convertedValues((*encoding.Values).Int32, func(v int32) int64 { return conv(int64(v)) }), true
	case parquet.Int64:
		from, ok := fileTimeUnit(t)
		if !ok {
			return valueSource[int64]{}, false
		}
		if from == want {
			return sameValues((*encoding.Values).Int64), true
		}
		return convertedValues((*encoding.Values).Int64, unitConverter(from, want)), true
	}
	return valueSource[int64]{}, false
}

// unitConverter converts between time units, flooring when precision is lost
// so that instants before 1970 round towards the past like Iceberg does.
func unitConverter(from, to arrow.TimeUnit) func(int64) int64 {
	f, t := int64(from.Multiplier()), int64(to.Multiplier())
	switch {
	case f > t:
		mul := f / t
		return func(v int64) int64 { return v * mul }
	case f < t:
		div := t / f
		return func(v int64) int64 { return floorDiv(v, div) }
	default:
		return func(v int64) int64 { return v }
	}
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && a < 0 {
		q--
	}
	return q
}

// julianUnixEpoch is the Julian day number of 1970-01-01.
const julianUnixEpoch = 2440588

// int96Nanos decodes a legacy INT96 timestamp (8 bytes of nanoseconds within
// the day, then 4 bytes of Julian day, little endian) as nanoseconds since
// the Unix epoch.
func int96Nanos(v deprecated.Int96) int64 {
	nanosOfDay := int64(v[1])<<32 | int64(v[0])
	return (int64(v[2])-julianUnixEpoch)*86400_000_000_000 + nanosOfDay
}

// fileDecimal returns the precision and scale of a DECIMAL column.
func fileDecimal(c *parquet.Column) (precision, scale int32, ok bool) {
	if lt := c.Type().LogicalType(); lt != nil {
		if d, isDec := lt.Value.(*format.DecimalType); isDec {
			return d.Precision, d.Scale, true
		}
	}
	return 0, 0, false
}

// decimalSource reads DECIMAL columns stored as INT32, INT64, BYTE_ARRAY or
// FIXED_LEN_BYTE_ARRAY. Iceberg only widens a decimal's precision, never its
// scale, so unscaled values are used unchanged.
func decimalSource(c *parquet.Column, want *arrow.Decimal128Type) (valueSource[decimal128.Num], error) {
	if c.Type().Kind() == parquet.Int64 && unsignedInt(c.Type()) && want.Scale == 0 && want.Precision >= uint64Decimal.Precision {
		return convertedValues((*encoding.Values).Int64, unsignedDecimal), nil
	}
	precision, scale, ok := fileDecimal(c)
	if !ok {
		return valueSource[decimal128.Num]{}, fmt.Errorf("cannot read parquet %s column %s as %s", typeName(c.Type()), c.Name(), want)
	}
	if scale != want.Scale || precision > want.Precision {
		return valueSource[decimal128.Num]{}, fmt.Errorf("cannot read parquet decimal(%d,%d) column %s as %s", precision, scale, c.Name(), want)
	}
	switch c.Type().Kind() {
	case parquet.Int32:
		return convertedValues((*encoding.Values).Int32, func(v int32) decimal128.Num { return decimal128.FromI64(int64(v)) }), nil
	case parquet.Int64:
		return convertedValues((*encoding.Values).Int64, decimal128.FromI64), nil
	case parquet.ByteArray:
		return valueSource[decimal128.Num]{decode: decodeByteArrayDecimals}, nil
	case parquet.FixedLenByteArray:
		return fixedBytesValues(c.Type().Length(), decimalFromBigEndian), nil
	}
	return valueSource[decimal128.Num]{}, fmt.Errorf("unsupported decimal storage %s for column %s", c.Type().Kind(), c.Name())
}

// fixedBytesValues reads a FIXED_LEN_BYTE_ARRAY(width) column converted
// value by value with conv.
func fixedBytesValues[T any](width int, conv func([]byte) T) valueSource[T] {
	return valueSource[T]{decode: func(v *encoding.Values, n int, dst []T) ([]T, error) {
		data, _ := v.Data()
		if len(data) < n*width {
			return nil, fmt.Errorf("page holds %d bytes, expected %d", len(data), n*width)
		}
		for i := range n {
			dst = append(dst, conv(data[i*width:(i+1)*width]))
		}
		return dst, nil
	}}
}

// intervalFromParquet decodes Parquet's INTERVAL: months, days and
// milliseconds, unsigned little-endian 32-bit integers.
func intervalFromParquet(b []byte) arrow.MonthDayNanoInterval {
	return arrow.MonthDayNanoInterval{
		Months:      int32(binary.LittleEndian.Uint32(b)),
		Days:        int32(binary.LittleEndian.Uint32(b[4:])),
		Nanoseconds: int64(binary.LittleEndian.Uint32(b[8:])) * 1_000_000,
	}
}

func decodeByteArrayDecimals(v *encoding.Values, n int, dst []decimal128.Num) ([]decimal128.Num, error) {
	data, offs := v.ByteArray()
	if len(offs) < n+1 {
		return nil, fmt.Errorf("page holds %d values, expected %d", max(len(offs)-1, 0), n)
	}
	for i := range n {
		dst = append(dst, decimalFromBigEndian(data[offs[i]:offs[i+1]]))
	}
	return dst, nil
}

// decimalFromBigEndian decodes a big-endian two's complement unscaled value of
// at most 16 bytes (Parquet's and Iceberg's decimal representation).
func decimalFromBigEndian(b []byte) decimal128.Num {
	var buf [16]byte
	if len(b) > 16 {
		b = b[len(b)-16:]
	}
	if len(b) > 0 && b[0]&0x80 != 0 {
		for i := range buf {
			buf[i] = 0xff
		}
	}
	copy(buf[16-len(b):], b)
	return decimal128.New(int64(binary.BigEndian.Uint64(buf[:8])), binary.BigEndian.Uint64(buf[8:]))
}

// zeroedBuffer allocates a zeroed buffer of size bytes.
func zeroedBuffer(mem memory.Allocator, size int) *memory.Buffer {
	buf := memory.NewResizableBuffer(mem)
	buf.Resize(size)
	if !AllocatesZeroed(mem) {
		clear(buf.Bytes())
	}
	return buf
}

// AllocatesZeroed reports whether mem hands out zeroed memory: Go's
// allocator does (make), and so do allocators that say so with a method
// AllocatesZeroed. Others' buffers must be cleared where zeroes matter.
func AllocatesZeroed(mem memory.Allocator) bool {
	switch mem.(type) {
	case *memory.GoAllocator, interface{ AllocatesZeroed() }:
		return true
	}
	return false
}
