package storage

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/apache/iceberg-go"
	icebergio "github.com/apache/iceberg-go/io"
	"github.com/apache/iceberg-go/table"
	"github.com/google/uuid"
	"github.com/lakesql/lakesql/value"
)

// ScanRequest describes a scan to plan.
type ScanRequest struct {
	Metadata table.Metadata
	Snapshot *table.Snapshot // nil: the table is empty
	Schema   *iceberg.Schema // the schema the filter refers to
	// Filter is implied by the query's WHERE clause (every matching row
	// satisfies it); nil or AlwaysTrue when nothing can prune.
	Filter iceberg.BooleanExpression
	// Prune false lists every file (the optimizer's prune_files rule is
	// off).
	Prune bool
	// Cache, when set, keeps manifest entries across scans of a session.
	Cache *ManifestCache
}

// ScanPlan is which data files a scan reads and why.
type ScanPlan struct {
	// Pruned says the files were chosen by the filter; false when every
	// file is listed.
	Pruned      bool
	Files       []iceberg.DataFile
	DeleteFiles []iceberg.DataFile
	// FileSeqs and DeleteSeqs are the data sequence numbers of Files and
	// DeleteFiles, index for index: they decide which deletes apply to which
	// data files (delete_files.go).
	FileSeqs, DeleteSeqs []int64
	// RowFilter is Filter bound to the schema, for row-group pruning; nil
	// when nothing can prune.
	RowFilter iceberg.BooleanExpression
	// FilterText is the stats filter as EXPLAIN shows it ("" when none).
	FilterText string
	Specs      []SpecPlan

	ManifestsTotal, ManifestsKept        int
	FilesTotal                           int
	FilesAfterPartition, FilesAfterStats int
	BytesTotal, BytesKept                int64
}

// SpecPlan is the pruning of the files written under one partition spec.
type SpecPlan struct {
	SpecID          int
	Fields          string // "day(event_time)", or "unpartitioned"
	PartitionFilter string // "day(event_time) = 2026-01-15", or "none"
	ManifestsTotal  int
	ManifestsKept   int
	FilesTotal      int // files in the kept manifests
	FilesKept       int // after partition pruning
}

// PlanScan lists the data files of a snapshot that could hold rows matching
// the filter: manifests are skipped by their partition summaries, files by
// their partition tuples (each judged by its own spec) and then by their
// column bounds and null counts. Manifests are read in parallel.
func PlanScan(ctx context.Context, fsys icebergio.IO, req ScanRequest) (*ScanPlan, error) {
	plan := &ScanPlan{Pruned: req.Prune}
	if req.Snapshot == nil {
		return plan, nil
	}
	manifests, err := req.Cache.SnapshotManifests(fsys, req.Snapshot)
	if err != nil {
		return nil, snapshotFileError("manifest list", req.Snapshot.ManifestList, err)
	}
	if req.Snapshot.Summary != nil {
		plan.BytesTotal, _ = strconv.ParseInt(req.Snapshot.Summary.Properties["total-files-size"], 10, 64)
	}
	var bound iceberg.BooleanExpression
	if req.Prune && req.Filter != nil && req.Filter.Op() != iceberg.OpTrue {
		if rewritten, err := iceberg.RewriteNotExpr(req.Filter); err == nil {
			if b, err := iceberg.BindExpr(req.Schema, rewritten, true); err == nil {
				bound = b
			}
		}
	}
	plan.RowFilter = bound
	if bound != nil {
		plan.FilterText = describeExpr(bound,
			func(id int) string { name, _ := req.Schema.FindColumnName(id); return name },
			func(_ int, v iceberg.Literal) string { return literalText(v) })
	}
	specs := map[int]*specPruner{}
	var kept []iceberg.ManifestFile
	for _, m := range manifests {
		if m.ManifestContent() == iceberg.ManifestContentDeletes {
			kept = append(kept, m) // delete files are always needed
			continue
		}
		if m.AddedDataFiles()+m.ExistingDataFiles() == 0 && m.DeletedDataFiles() > 0 {
			continue // only records files a rewrite or delete removed
		}
		sp := specs[int(m.PartitionSpecID())]
		if sp == nil {
			if sp, err = newSpecPruner(req.Metadata, req.Schema, int(m.PartitionSpecID()), bound); err != nil {
				return nil, err
			}
			specs[sp.plan.SpecID] = sp
		}
		files := int(m.AddedDataFiles() + m.ExistingDataFiles())
		plan.ManifestsTotal++
		plan.FilesTotal += files
		sp.plan.ManifestsTotal++
		if !sp.manifestMightMatch(m) {
			continue
		}
		plan.ManifestsKept++
		sp.plan.ManifestsKept++
		kept = append(kept, m)
	}
	entries, err := readManifests(ctx, fsys, kept, req.Cache)
	if err != nil {
		return nil, err
	}
	for i, m := range kept {
		if m.ManifestContent() == iceberg.ManifestContentDeletes {
			for _, e := range entries[i] {
				plan.DeleteFiles = append(plan.DeleteFiles, e.DataFile())
				plan.DeleteSeqs = append(plan.DeleteSeqs, e.SequenceNum())
			}
			continue
		}
		sp := specs[int(m.PartitionSpecID())]
		for _, e := range entries[i] {
			df := e.DataFile()
			sp.plan.FilesTotal++
			if !sp.fileMightMatch(df) {
				continue
			}
			sp.plan.FilesKept++
			plan.FilesAfterPartition++
			if bound != nil && !MightMatch(bound, fileStats(req.Schema, df)) {
				continue
			}
			plan.FilesAfterStats++
			plan.BytesKept += df.FileSizeBytes()
			plan.Files = append(plan.Files, df)
			plan.FileSeqs = append(plan.FileSeqs, e.SequenceNum())
		}
	}
	for _, sp := range specs {
		plan.Specs = append(plan.Specs, sp.plan)
	}
	sort.Slice(plan.Specs, func(i, j int) bool { return plan.Specs[i].SpecID < plan.Specs[j].SpecID })
	return plan, nil
}

// readManifests reads manifests' live entries in parallel, through the cache.
// Decoding is CPU work, but on object storage each read first waits a round
// trip, so more reads than cores are in flight: a full scan of the 33
// manifests of a 1095-day table waits 3 round trips, not 9 on 2 cores.
func readManifests(ctx context.Context, fsys icebergio.IO, manifests []iceberg.ManifestFile, cache *ManifestCache) ([][]iceberg.ManifestEntry, error) {
	entries := make([][]iceberg.ManifestEntry, len(manifests))
	errs := make([]error, len(manifests))
	var wg sync.WaitGroup
	sem := make(chan struct{}, max(16, runtime.GOMAXPROCS(0)*2))
	for i, m := range manifests {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			if err := ctx.Err(); err != nil {
				errs[i] = err
				return
			}
			if cached, ok := cache.get(m.FilePath()); ok {
				entries[i] = cached
				return
			}
			entries[i], errs[i] = m.FetchEntries(fsys, true)
			if errs[i] != nil {
				errs[i] = snapshotFileError("manifest", m.FilePath(), errs[i])
				return
			}
			cache.put(m.FilePath(), entries[i])
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return entries, nil
}

// specPruner prunes manifests and files written under one partition spec.
type specPruner struct {
	plan      SpecPlan
	partType  *iceberg.StructType
	projected iceberg.BooleanExpression // bound to the partition struct; nil: no pruning
}

func newSpecPruner(meta table.Metadata, schema *iceberg.Schema, specID int, bound iceberg.BooleanExpression) (*specPruner, error) {
	var spec *iceberg.PartitionSpec
	for _, s := range meta.PartitionSpecs() {
		if s.ID() == specID {
			spec = &s
			break
		}
	}
	if spec == nil {
		return nil, fmt.Errorf("partition spec %d is not in the table metadata", specID)
	}
	sp := &specPruner{plan: SpecPlan{SpecID: specID, Fields: "unpartitioned", PartitionFilter: "none"}, partType: spec.PartitionType(schema)}
	var names []string
	byID := map[int]iceberg.PartitionField{}
	for _, pf := range spec.Fields() {
		names = append(names, PartitionFieldText(schema, pf))
		byID[pf.FieldID] = pf
	}
	if len(names) > 0 {
		sp.plan.Fields = strings.Join(names, ", ")
	}
	if bound == nil || spec.NumFields() == 0 {
		return sp, nil
	}
	projected := projectToSpec(bound, *spec)
	if projected.Op() == iceberg.OpTrue {
		return sp, nil
	}
	partSchema := iceberg.NewSchema(0, sp.partType.FieldList...)
	b, err := iceberg.BindExpr(partSchema, projected, true)
	if err != nil {
		return sp, nil // not prunable by partition: files are still checked by stats
	}
	sp.projected = b
	sp.plan.PartitionFilter = describeExpr(b,
		func(id int) string { return PartitionFieldText(schema, byID[id]) },
		func(id int, v iceberg.Literal) string {
			pf := byID[id]
			src, _ := schema.FindFieldByID(pf.SourceID())
			return pf.Transform.ToHumanStrType(src.Type, v.Any())
		})
	return sp, nil
}

// partitionFieldText prints a partition field as day(event_time) or region.
func PartitionFieldText(schema *iceberg.Schema, pf iceberg.PartitionField) string {
	src, _ := schema.FindColumnName(pf.SourceID())
	switch t := pf.Transform.(type) {
	case iceberg.IdentityTransform:
		return src
	case iceberg.BucketTransform:
		return fmt.Sprintf("bucket(%d, %s)", t.NumBuckets, src)
	case iceberg.TruncateTransform:
		return fmt.Sprintf("truncate(%d, %s)", t.Width, src)
	}
	return fmt.Sprintf("%s(%s)", pf.Transform, src)
}

func (sp *specPruner) manifestMightMatch(m iceberg.ManifestFile) bool {
	if sp.projected == nil {
		return true
	}
	summaries := m.Partitions()
	return MightMatch(sp.projected, func(id int) FieldStats {
		for i, f := range sp.partType.FieldList {
			if f.ID != id || i >= len(summaries) {
				continue
			}
			s := summaries[i]
			st := FieldStats{Nulls: 0, Values: -1, NaNs: -1, NoBoundsMeansAllNull: true}
			if s.ContainsNull {
				st.Nulls = 1
			}
			if s.ContainsNaN != nil && !*s.ContainsNaN {
				st.NaNs = 0
			}
			st.Lower = boundLiteral(f.Type, s.LowerBound)
			st.Upper = boundLiteral(f.Type, s.UpperBound)
			return st
		}
		return unknownStats()
	})
}

func unknownStats() FieldStats { return FieldStats{Nulls: -1, Values: -1, NaNs: -1} }

func boundLiteral(t iceberg.Type, b *[]byte) iceberg.Literal {
	if b == nil {
		return nil
	}
	lit, err := iceberg.LiteralFromBytes(t, *b)
	if err != nil {
		return nil
	}
	return lit
}

// fileMightMatch evaluates the projected predicate on the file's partition tuple.
func (sp *specPruner) fileMightMatch(df iceberg.DataFile) bool {
	if sp.projected == nil {
		return true
	}
	partition := df.Partition()
	return MightMatch(sp.projected, func(id int) FieldStats {
		v, present := partition[id]
		if !present {
			return unknownStats()
		}
		if v == nil {
			return FieldStats{Nulls: 1, Values: 1, NaNs: 0}
		}
		for _, f := range sp.partType.FieldList {
			if f.ID == id {
				lit, ok := partitionLiteral(v, f.Type)
				if !ok {
					return unknownStats()
				}
				return FieldStats{Lower: lit, Upper: lit, Nulls: 0, Values: 1, NaNs: nanCount(lit)}
			}
		}
		return unknownStats()
	})
}

func nanCount(l iceberg.Literal) int64 {
	switch v := l.(type) {
	case iceberg.Float32Literal:
		if math.IsNaN(float64(v)) {
			return 1
		}
	case iceberg.Float64Literal:
		if math.IsNaN(float64(v)) {
			return 1
		}
	}
	return 0
}

// partitionLiteral converts a partition value as manifests decode it into a
// literal of the partition field's type.
func partitionLiteral(v any, t iceberg.Type) (iceberg.Literal, bool) {
	lit, ok := partitionValueLiteral(v)
	if !ok {
		return nil, false
	}
	conv, err := lit.To(t)
	if err != nil {
		return nil, false
	}
	return conv, true
}

// partitionValueLiteral is a partition value as a literal of its Go type;
// ok is false for nil and values of no Iceberg type.
func partitionValueLiteral(v any) (lit iceberg.Literal, ok bool) {
	switch x := v.(type) {
	case iceberg.Literal:
		lit = x
	case bool:
		lit = iceberg.BoolLiteral(x)
	case int32:
		lit = iceberg.Int32Literal(x)
	case int64:
		lit = iceberg.Int64Literal(x)
	case float32:
		lit = iceberg.Float32Literal(x)
	case float64:
		lit = iceberg.Float64Literal(x)
	case string:
		lit = iceberg.StringLiteral(x)
	case []byte:
		lit = iceberg.BinaryLiteral(x)
	case iceberg.Date:
		lit = iceberg.DateLiteral(x)
	case iceberg.Time:
		lit = iceberg.TimeLiteral(x)
	case iceberg.Timestamp:
		lit = iceberg.TimestampLiteral(x)
	case iceberg.Decimal:
		lit = iceberg.DecimalLiteral(x)
	case uuid.UUID:
		lit = iceberg.UUIDLiteral(x)
	default:
		return nil, false
	}
	return lit, true
}

// fileStats reads a data file's column metrics.
func fileStats(schema *iceberg.Schema, df iceberg.DataFile) func(int) FieldStats {
	lower, upper := df.LowerBoundValues(), df.UpperBoundValues()
	nulls, values, nans := df.NullValueCounts(), df.ValueCounts(), df.NaNValueCounts()
	return func(id int) FieldStats {
		st := unknownStats()
		if n, ok := nulls[id]; ok {
			st.Nulls = n
		}
		if n, ok := values[id]; ok {
			st.Values = n
		}
		if n, ok := nans[id]; ok {
			st.NaNs = n
		}
		if f, ok := schema.FindFieldByID(id); ok {
			if b, ok := lower[id]; ok {
				st.Lower = boundLiteral(f.Type, &b)
			}
			if b, ok := upper[id]; ok {
				st.Upper = boundLiteral(f.Type, &b)
			}
		}
		return st
	}
}

// literalText prints a filter constant the way SQL writes it.
func literalText(v iceberg.Literal) string {
	switch x := v.(type) {
	case iceberg.StringLiteral:
		return "'" + strings.ReplaceAll(string(x), "'", "''") + "'"
	case iceberg.DateLiteral:
		return "DATE '" + value.FormatDate(int32(x)) + "'"
	case iceberg.TimestampLiteral:
		return "TIMESTAMP '" + value.FormatTimestamp(int64(x)) + "'"
	}
	return v.String()
}
