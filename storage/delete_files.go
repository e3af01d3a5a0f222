package storage

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/iceberg-go"
	icebergio "github.com/apache/iceberg-go/io"
	"github.com/apache/iceberg-go/table"
)

// Field ids of the columns of a position delete file (Iceberg spec, reserved ids).
const (
	posDeleteFilePathID = 2147483546
	posDeletePosID      = 2147483545
)

// deleteBatchRows is how many delete rows are decoded at a time.
const deleteBatchRows = 64 << 10

// ScanFileRef is a data file a scan reads, with its data sequence number.
type ScanFileRef struct {
	File iceberg.DataFile
	Seq  int64
}

// EqualityDeletes is one equality delete file: a row of a data file it
// applies to is deleted when the row's values of FieldIDs equal those of one
// of Rows (NULL equals NULL). Rows' columns are FieldIDs, in order.
type EqualityDeletes struct {
	Path     string
	FieldIDs []int
	Rows     []arrow.RecordBatch
	seq      int64
	specID   int32
	key      string // partition key; "" for an unpartitioned delete file
	global   bool   // written under an unpartitioned spec: applies to every partition
}

// FileDeletes are the deletes that apply to one data file.
type FileDeletes struct {
	// Positions are the deleted row positions, 0-based within the file,
	// sorted and without duplicates.
	Positions []int64
	Equality  []*EqualityDeletes
}

// Empty reports whether nothing is deleted.
func (d FileDeletes) Empty() bool { return len(d.Positions) == 0 && len(d.Equality) == 0 }

// positionRun is the positions one delete file deletes from one data file.
type positionRun struct {
	seq       int64
	positions []int64
}

// Deletes holds the delete files of a scan, read and indexed by the data
// files they apply to.
type Deletes struct {
	meta      table.Metadata
	schema    *iceberg.Schema
	positions map[string][]positionRun
	vectors   map[string]positionRun // deletion vectors, by data file path
	equality  []*EqualityDeletes
}

// LoadDeletes reads the delete files that apply to any of data: position
// deletes (only the rows naming one of data) and equality deletes (whole).
// deleteSeqs are the data sequence numbers of deleteFiles. column describes
// how to read a table column (by field id) of an equality delete file.
// Deletion vectors (format v3) are read only for the data files in data, so
// a vector whose file pruning removed costs nothing.
func LoadDeletes(ctx context.Context, fs icebergio.IO, meta table.Metadata, schema *iceberg.Schema, data []ScanFileRef,
	deleteFiles []iceberg.DataFile, deleteSeqs []int64, column func(fieldID int) (ReadColumn, error), mem memory.Allocator) (*Deletes, error) {
	d := &Deletes{meta: meta, schema: schema, positions: map[string][]positionRun{}, vectors: map[string]positionRun{}}
	wanted := map[string]bool{}
	for _, f := range data {
		wanted[f.File.FilePath()] = true
	}
	var jobs []func() error
	var mu sync.Mutex
	vectorFiles := map[string]*deletionVectorFile{}
	for i, df := range deleteFiles {
		seq := deleteSeqs[i]
		if table.IsDeletionVector(df) {
			ref, err := deletionVectorTarget(df)
			if err != nil {
				return nil, err
			}
			if !wanted[ref] {
				continue
			}
			vf := vectorFiles[df.FilePath()]
			if vf == nil {
				vf = &deletionVectorFile{path: df.FilePath()}
				vectorFiles[df.FilePath()] = vf
				jobs = append(jobs, func() error {
					byPath, err := readDeletionVectors(fs, *vf)
					if err != nil {
						return err
					}
					mu.Lock()
					defer mu.Unlock()
					for path, run := range byPath {
						if _, dup := d.vectors[path]; dup {
							return fmt.Errorf("data file %s has two deletion vectors (one in %s); a snapshot may hold one per data file", path, vf.path)
						}
						d.vectors[path] = run
					}
					return nil
				})
			}
			vf.vectors = append(vf.vectors, df)
			vf.seqs = append(vf.seqs, seq)
			continue
		}
		switch df.ContentType() {
		case iceberg.EntryContentPosDeletes:
			if path, ok := referencedDataFile(df); ok && !wanted[path] {
				continue
			}
			jobs = append(jobs, func() error {
				byPath, err := readPositionDeletes(ctx, fs, df, wanted, mem)
				if err != nil {
					return err
				}
				mu.Lock()
				defer mu.Unlock()
				for path, positions := range byPath {
					d.positions[path] = append(d.positions[path], positionRun{seq: seq, positions: positions})
				}
				return nil
			})
		case iceberg.EntryContentEqDeletes:
			eq, err := d.newEqualityDeletes(df, seq)
			if err != nil {
				return nil, err
			}
			if !slices.ContainsFunc(data, func(f ScanFileRef) bool { return d.equalityApplies(eq, f) }) {
				continue
			}
			d.equality = append(d.equality, eq)
			jobs = append(jobs, func() error {
				rows, err := readEqualityDeletes(ctx, fs, df, eq.FieldIDs, column, mem)
				eq.Rows = rows
				return err
			})
		}
	}
	if err := runParallel(jobs); err != nil {
		d.Release()
		return nil, err
	}
	return d, nil
}

// Release frees the equality delete rows.
func (d *Deletes) Release() {
	for _, eq := range d.equality {
		for _, b := range eq.Rows {
			b.Release()
		}
		eq.Rows = nil
	}
}

// For returns the deletes that apply to a data file, by the spec's rules: a
// position delete or deletion vector applies to data files with a data
// sequence number lower than or equal to its own (a delete written in the
// same commit as the file deletes from it), an equality delete only to
// strictly older data files of the same partition (or of any partition when
// it is global). When a deletion vector applies, the file's position delete
// files do not: a writer merges them into the vector it writes.
func (d *Deletes) For(f ScanFileRef) FileDeletes {
	var out FileDeletes
	if v, ok := d.vectors[f.File.FilePath()]; ok && f.Seq <= v.seq {
		out.Positions = v.positions
	} else {
		for _, run := range d.positions[f.File.FilePath()] {
			if f.Seq <= run.seq {
				out.Positions = append(out.Positions, run.positions...)
			}
		}
		slices.Sort(out.Positions)
		out.Positions = slices.Compact(out.Positions)
	}
	for _, eq := range d.equality {
		if d.equalityApplies(eq, f) {
			out.Equality = append(out.Equality, eq)
		}
	}
	return out
}

func (d *Deletes) newEqualityDeletes(df iceberg.DataFile, seq int64) (*EqualityDeletes, error) {
	ids := df.EqualityFieldIDs()
	if len(ids) == 0 {
		return nil, fmt.Errorf("equality delete file %s lists no equality field ids", df.FilePath())
	}
	key, err := d.partitionKey(df)
	if err != nil {
		return nil, err
	}
	return &EqualityDeletes{Path: df.FilePath(), FieldIDs: ids, seq: seq, specID: df.SpecID(), key: key, global: key == ""}, nil
}

func (d *Deletes) equalityApplies(eq *EqualityDeletes, f ScanFileRef) bool {
	if f.Seq >= eq.seq {
		return false
	}
	if eq.global {
		return true
	}
	if f.File.SpecID() != eq.specID {
		return false
	}
	key, err := d.partitionKey(f.File)
	return err == nil && key == eq.key
}

func (d *Deletes) partitionKey(df iceberg.DataFile) (string, error) {
	spec := d.meta.PartitionSpecByID(int(df.SpecID()))
	if spec == nil {
		return "", fmt.Errorf("file %s has partition spec %d, which is not in the table metadata", df.FilePath(), df.SpecID())
	}
	return PartitionKey(*spec, d.schema, df.Partition())
}

// PartitionKey encodes a partition tuple of spec as a string that is equal
// for equal tuples, whichever Go types the values were decoded as (manifest
// readers and transforms do not agree). It is "" for an unpartitioned spec.
func PartitionKey(spec iceberg.PartitionSpec, schema *iceberg.Schema, partition map[int]any) (string, error) {
	var b strings.Builder
	for _, f := range spec.PartitionType(schema).FieldList {
		v, ok := partition[f.ID]
		if !ok || v == nil {
			fmt.Fprintf(&b, "%d:null;", f.ID)
			continue
		}
		lit, ok := partitionLiteral(v, f.Type)
		if !ok {
			return "", fmt.Errorf("partition value %v of field %s is not a %s", v, f.Name, f.Type)
		}
		fmt.Fprintf(&b, "%d=%q;", f.ID, lit.String())
	}
	return b.String(), nil
}

// referencedDataFile returns the one data file a position delete file
// deletes from, when its metadata says so: Spark's file-scoped deletes carry
// equal bounds on file_path.
func referencedDataFile(df iceberg.DataFile) (string, bool) {
	if ref := df.ReferencedDataFile(); ref != nil {
		return *ref, true
	}
	lo, okLo := df.LowerBoundValues()[posDeleteFilePathID]
	hi, okHi := df.UpperBoundValues()[posDeleteFilePathID]
	if okLo && okHi && string(lo) == string(hi) {
		return string(lo), true
	}
	return "", false
}

// readPositionDeletes returns the deleted positions of a position delete
// file, by data file path, for the paths in wanted only.
func readPositionDeletes(ctx context.Context, fs icebergio.IO, df iceberg.DataFile, wanted map[string]bool, mem memory.Allocator) (map[string][]int64, error) {
	cols := []ReadColumn{
		{FieldID: posDeleteFilePathID, Name: "file_path", Type: arrow.BinaryTypes.String},
		{FieldID: posDeletePosID, Name: "pos", Type: arrow.PrimitiveTypes.Int64},
	}
	// A path read from a batch aliases the batch's buffer, which is reused
	// once the batch is released, so map keys are copies. Values are
	// pointers because assigning to a string key replaces the stored key
	// with the one assigned; lookups leave it.
	byPath := map[string]*[]int64{}
	err := readDeleteFile(ctx, fs, df, cols, mem, func(batch arrow.RecordBatch) error {
		paths, ok1 := batch.Column(0).(*array.String)
		positions, ok2 := batch.Column(1).(*array.Int64)
		if !ok1 || !ok2 || paths.NullN() > 0 || positions.NullN() > 0 {
			return fmt.Errorf("position delete file %s: file_path and pos must be non-null string and long columns", df.FilePath())
		}
		for i := range paths.Len() {
			p := paths.Value(i)
			if !wanted[p] {
				continue
			}
			run := byPath[p]
			if run == nil {
				run = new([]int64)
				byPath[strings.Clone(p)] = run
			}
			*run = append(*run, positions.Value(i))
		}
		return nil
	})
	out := make(map[string][]int64, len(byPath))
	for p, run := range byPath {
		out[p] = *run
	}
	return out, err
}

// readEqualityDeletes reads the equality columns of an equality delete file.
func readEqualityDeletes(ctx context.Context, fs icebergio.IO, df iceberg.DataFile, fieldIDs []int, column func(int) (ReadColumn, error), mem memory.Allocator) ([]arrow.RecordBatch, error) {
	cols := make([]ReadColumn, len(fieldIDs))
	for i, id := range fieldIDs {
		c, err := column(id)
		if err != nil {
			return nil, fmt.Errorf("equality delete file %s: %w", df.FilePath(), err)
		}
		cols[i] = c
	}
	var rows []arrow.RecordBatch
	err := readDeleteFile(ctx, fs, df, cols, mem, func(batch arrow.RecordBatch) error {
		batch.Retain()
		rows = append(rows, batch)
		return nil
	})
	if err != nil {
		for _, b := range rows {
			b.Release()
		}
		return nil, err
	}
	return rows, nil
}

// readDeleteFile streams the given columns of a Parquet delete file to fn.
func readDeleteFile(ctx context.Context, fs icebergio.IO, df iceberg.DataFile, cols []ReadColumn, mem memory.Allocator, fn func(arrow.RecordBatch) error) error {
	if df.FileFormat() != iceberg.ParquetFile {
		return fmt.Errorf("delete file %s is %s; lakesql reads Parquet delete files only", df.FilePath(), df.FileFormat())
	}
	file, err := fs.Open(df.FilePath())
	if err != nil {
		return fmt.Errorf("open delete file %s: %w", df.FilePath(), err)
	}
	defer file.Close()
	pf, err := OpenParquet(file, df.FileSizeBytes(), df.FilePath())
	if err != nil {
		return err
	}
	for _, c := range cols {
		if col, err := pf.column(c); err != nil || col == nil {
			return fmt.Errorf("delete file %s has no column with field id %d", df.FilePath(), c.FieldID)
		}
	}
	for rg := range pf.NumRowGroups() {
		it, err := pf.ReadRowGroup(ctx, rg, cols, deleteBatchRows, mem)
		if err != nil {
			return err
		}
		err = drainInto(it, fn)
		it.Close()
		if err != nil {
			return err
		}
	}
	return nil
}

func drainInto(it RecordIterator, fn func(arrow.RecordBatch) error) error {
	for {
		batch, err := it.Next()
		if err != nil || batch == nil {
			return err
		}
		err = fn(batch)
		batch.Release()
		if err != nil {
			return err
		}
	}
}

// runParallel runs jobs on up to one goroutine per core and returns the
// first error.
func runParallel(jobs []func() error) error {
	errs := make([]error, len(jobs))
	var wg sync.WaitGroup
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	for i, job := range jobs {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			errs[i] = job()
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
