package storage

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/table"
)

// RewriteOptions are the file selection and grouping options of
// rewrite_data_files, with Iceberg's meaning (RewriteDataFiles and its
// BinPackRewriteFilePlanner).
//
// iceberg-go's compaction.Config.PlanCompaction is not used: it packs bins
// of the target file size rather than of max-file-group-size-bytes, drops a
// bin with fewer than min-input-files files even when it holds too much
// data, and knows neither rewrite-all nor the output spec.
type RewriteOptions struct {
	RewriteAll          bool
	TargetFileSize      int64
	MinFileSize         int64
	MaxFileSize         int64
	MaxGroupSize        int64 // max-file-group-size-bytes
	MinInputFiles       int
	DeleteFileThreshold int
	OutputSpecID        int
}

// DefaultMaxFileGroupSize is Iceberg's max-file-group-size-bytes: 100 GiB.
const DefaultMaxFileGroupSize = 100 << 30

// DefaultRewriteOptions are Iceberg's defaults for a table: sizes derived
// from its write.target-file-size-bytes, output to its current spec.
func DefaultRewriteOptions(tbl *table.Table) RewriteOptions {
	target := int64(tbl.Properties().GetInt("write.target-file-size-bytes", DefaultTargetFileSize))
	return RewriteOptions{
		TargetFileSize:      target,
		MinFileSize:         target * 3 / 4,
		MaxFileSize:         target * 9 / 5,
		MaxGroupSize:        DefaultMaxFileGroupSize,
		MinInputFiles:       5,
		DeleteFileThreshold: math.MaxInt32,
		OutputSpecID:        tbl.Metadata().DefaultPartitionSpec(),
	}
}

// Validate checks the options against each other as Iceberg does.
func (o RewriteOptions) Validate() error {
	switch {
	case o.TargetFileSize <= 0:
		return fmt.Errorf("target-file-size-bytes must be positive, got %d", o.TargetFileSize)
	case o.MinFileSize < 0 || o.MinFileSize > o.TargetFileSize:
		return fmt.Errorf("min-file-size-bytes (%d) must be between 0 and target-file-size-bytes (%d)", o.MinFileSize, o.TargetFileSize)
	case o.MaxFileSize < o.TargetFileSize:
		return fmt.Errorf("max-file-size-bytes (%d) must be at least target-file-size-bytes (%d)", o.MaxFileSize, o.TargetFileSize)
	case o.MaxGroupSize <= 0:
		return fmt.Errorf("max-file-group-size-bytes must be positive, got %d", o.MaxGroupSize)
	case o.MinInputFiles < 1:
		return fmt.Errorf("min-input-files must be at least 1, got %d", o.MinInputFiles)
	case o.DeleteFileThreshold < 1:
		return fmt.Errorf("delete-file-threshold must be at least 1, got %d", o.DeleteFileThreshold)
	}
	return nil
}

// RewriteGroup is a set of data files of one partition (under their own
// spec) rewritten together: their rows are read and written anew.
type RewriteGroup struct {
	Files []int // indexes into the scan plan's Files
	Bytes int64
}

// rewriteFile is a data file of the plan with what selection needs.
type rewriteFile struct {
	index   int
	size    int64
	deletes int
	outside bool // too small, too large or too many deletes
	respec  bool // written under a spec other than the output spec
}

// PlanRewrite selects the files of plan to rewrite and groups them, as
// Iceberg does: a file is selected when rewrite-all is set, when its size is
// outside [min, max], when at least delete-file-threshold delete files apply
// to it, or when it was written under a spec other than the output spec.
// Files are grouped by partition (each under its own spec) and bin-packed up
// to max-file-group-size-bytes; a group is rewritten when rewrite-all is set,
// it has min-input-files files, more bytes than the target, a file that is
// too large or has too many deletes, or a file of another spec — so that
// after the rewrite every file is under the output spec.
func PlanRewrite(meta table.Metadata, schema *iceberg.Schema, plan *ScanPlan, opts RewriteOptions) ([]RewriteGroup, error) {
	deletes, err := countDeletes(meta, schema, plan)
	if err != nil {
		return nil, err
	}
	partitions := map[string][]rewriteFile{}
	var order []string
	for i, df := range plan.Files {
		f := rewriteFile{index: i, size: df.FileSizeBytes(), deletes: deletes[i], respec: int(df.SpecID()) != opts.OutputSpecID}
		f.outside = f.size < opts.MinFileSize || f.size > opts.MaxFileSize || f.deletes >= opts.DeleteFileThreshold
		if !opts.RewriteAll && !f.outside && !f.respec {
			continue
		}
		key, err := fileSpecPartition(meta, schema, df)
		if err != nil {
			return nil, err
		}
		if _, seen := partitions[key]; !seen {
			order = append(order, key)
		}
		partitions[key] = append(partitions[key], f)
	}
	var groups []RewriteGroup
	for _, key := range order {
		for _, bin := range packFiles(partitions[key], opts.MaxGroupSize) {
			if opts.shouldRewrite(bin) {
				groups = append(groups, newRewriteGroup(bin))
			}
		}
	}
	return groups, nil
}

// shouldRewrite decides whether rewriting a group of selected files is worth it.
func (o RewriteOptions) shouldRewrite(bin []rewriteFile) bool {
	var bytes int64
	for _, f := range bin {
		bytes += f.size
		if f.size > o.MaxFileSize || f.deletes >= o.DeleteFileThreshold || f.respec {
			return true
		}
	}
	return o.RewriteAll || len(bin) >= o.MinInputFiles || bytes > o.TargetFileSize
}

func newRewriteGroup(bin []rewriteFile) RewriteGroup {
	g := RewriteGroup{}
	for _, f := range bin {
		g.Files = append(g.Files, f.index)
		g.Bytes += f.size
	}
	slices.Sort(g.Files)
	return g
}

// packFiles bin-packs files into bins of at most maxBytes (a file larger
// than maxBytes gets a bin of its own): first fit, largest file first, which
// keeps bins few and full.
func packFiles(files []rewriteFile, maxBytes int64) [][]rewriteFile {
	files = slices.Clone(files)
	slices.SortStableFunc(files, func(a, b rewriteFile) int { return cmp.Compare(b.size, a.size) })
	var bins [][]rewriteFile
	var sizes []int64
	for _, f := range files {
		placed := false
		for i := range bins {
			if sizes[i]+f.size <= maxBytes {
				bins[i] = append(bins[i], f)
				sizes[i] += f.size
				placed = true
				break
			}
		}
		if !placed {
			bins = append(bins, []rewriteFile{f})
			sizes = append(sizes, f.size)
		}
	}
	return bins
}

// fileSpecPartition identifies a file's partition under its own spec.
func fileSpecPartition(meta table.Metadata, schema *iceberg.Schema, df iceberg.DataFile) (string, error) {
	spec := meta.PartitionSpecByID(int(df.SpecID()))
	if spec == nil {
		return "", fmt.Errorf("file %s has partition spec %d, which is not in the table metadata", df.FilePath(), df.SpecID())
	}
	key, err := PartitionKey(*spec, schema, df.Partition())
	return fmt.Sprintf("%d/%s", spec.ID(), key), err
}

// countDeletes counts, for each data file of plan, the delete files that may
// apply to it, from metadata alone (no delete file is read): a position
// delete file of the same partition that is not scoped to another file, or
// an equality delete file of the same partition (or unpartitioned), newer
// than the data file.
func countDeletes(meta table.Metadata, schema *iceberg.Schema, plan *ScanPlan) ([]int, error) {
	counts := make([]int, len(plan.Files))
	if len(plan.DeleteFiles) == 0 {
		return counts, nil
	}
	for i, df := range plan.Files {
		for j, del := range plan.DeleteFiles {
			applies, err := DeleteMayApply(meta, schema, df, plan.FileSeqs[i], del, plan.DeleteSeqs[j])
			if err != nil {
				return nil, err
			}
			if applies {
				counts[i]++
			}
		}
	}
	return counts, nil
}

// DeleteMayApply reports whether a delete file (with data sequence number
// delSeq) may delete rows of a data file (with data sequence number seq),
// by the Iceberg rules and the delete file's metadata.
func DeleteMayApply(meta table.Metadata, schema *iceberg.Schema, data iceberg.DataFile, seq int64, del iceberg.DataFile, delSeq int64) (bool, error) {
	switch del.ContentType() {
	case iceberg.EntryContentPosDeletes:
		if delSeq < seq {
			return false, nil
		}
		if path, ok := referencedDataFile(del); ok {
			return path == data.FilePath(), nil
		}
	case iceberg.EntryContentEqDeletes:
		if delSeq <= seq {
			return false, nil
		}
		if spec := meta.PartitionSpecByID(int(del.SpecID())); spec != nil && spec.IsUnpartitioned() {
			return true, nil
		}
	default:
		return false, nil
	}
	if del.SpecID() != data.SpecID() {
		return false, nil
	}
	a, err := fileSpecPartition(meta, schema, data)
	if err != nil {
		return false, err
	}
	b, err := fileSpecPartition(meta, schema, del)
	return a == b, err
}
