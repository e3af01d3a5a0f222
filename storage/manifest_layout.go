package storage

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/apache/iceberg-go"
	icebergio "github.com/apache/iceberg-go/io"
	"github.com/apache/iceberg-go/table"
)

// Manifest layout. A reader downloads a manifest whole (Avro has no index),
// so a query reads every manifest whose partition summary (the lower and
// upper bound of each partition field over its entries) admits the filter.
// One manifest listing every file of a 1095-day table is 142 KB, read by a
// one-day query that needs one entry of it. Written sorted by partition
// value and cut into groups, each manifest covers a narrow range of
// partitions and the others are skipped from the manifest list alone.
//
// How many groups: a selective query reads the manifest list (one entry
// per manifest) and one manifest (n/k entries of n files in k manifests),
// which is least when k and n/k are alike, so a group holds about √n
// entries: a 1095-file commit becomes 33 manifests of 34 entries (9 KB
// each, 4 KB of it the Avro header; one of all 1095 was 142 KB), a
// million-file one 1000 of 1000. A full scan then reads k manifests instead
// of one, in parallel (readManifests). Commits of at most
// minManifestEntries files, and files of one partition value, however
// many, stay one manifest: splitting them prunes nothing.
const minManifestEntries = 32

// ManifestGroups divides data files written under spec into the groups a
// snapshot writes as separate manifests: sorted by partition tuple (NULL
// first), cut between two partition values once a group has its share of
// entries, and cut anywhere when the group would exceed the table's
// commit.manifest.target-size-bytes (Iceberg's default 8 MB when unset), by
// an estimate of the entries' uncompressed size, so the deflated file is
// smaller than the target. Files keep their order within a partition.
func ManifestGroups(props iceberg.Properties, spec iceberg.PartitionSpec, files []iceberg.DataFile) [][]iceberg.DataFile {
	if len(files) == 0 {
		return nil
	}
	keys := make([][]iceberg.Literal, len(files))
	order := make([]int, len(files))
	for i, df := range files {
		order[i] = i
		part := df.Partition()
		for _, f := range spec.Fields() {
			// nil for NULL (and for a value of no Iceberg type, which
			// cannot be a partition value).
			lit, _ := partitionValueLiteral(part[f.FieldID])
			keys[i] = append(keys[i], lit)
		}
	}
	slices.SortStableFunc(order, func(a, b int) int { return comparePartitions(keys[a], keys[b]) })

	share := max(minManifestEntries, int(math.Ceil(math.Sqrt(float64(len(files))))))
	limit := int64(props.GetInt(table.ManifestTargetSizeBytesKey, table.ManifestTargetSizeBytesDefault))
	var groups [][]iceberg.DataFile
	var group []iceberg.DataFile
	var size int64
	for n, i := range order {
		entry := manifestEntryBytes(files[i])
		full := len(group) >= share && comparePartitions(keys[order[n-1]], keys[i]) != 0
		if len(group) > 0 && (full || size+entry > limit) {
			groups = append(groups, group)
			group, size = nil, 0
		}
		group = append(group, files[i])
		size += entry
	}
	return append(groups, group)
}

// manifestEntryBytes estimates the Avro-encoded size of a data file's
// manifest entry before compression: its path, the fixed fields, a few
// bytes per column statistic and the bounds themselves.
func manifestEntryBytes(df iceberg.DataFile) int64 {
	n := int64(len(df.FilePath())) + 64
	n += 6 * int64(len(df.ColumnSizes())+len(df.ValueCounts())+len(df.NullValueCounts())+len(df.NaNValueCounts()))
	for _, bounds := range []map[int][]byte{df.LowerBoundValues(), df.UpperBoundValues()} {
		for _, b := range bounds {
			n += int64(len(b)) + 4
		}
	}
	return n + 9*int64(len(df.Partition())+len(df.SplitOffsets()))
}

// comparePartitions orders partition tuples field by field, NULL first.
func comparePartitions(a, b []iceberg.Literal) int {
	for i := range a {
		if c := comparePartitionValues(a[i], b[i]); c != 0 {
			return c
		}
	}
	return 0
}

func comparePartitionValues(a, b iceberg.Literal) int {
	if a == nil || b == nil {
		return cmp.Compare(boolInt(a != nil), boolInt(b != nil))
	}
	if c, ok := compareLiterals(a, b); ok {
		return c
	}
	// Values compareLiterals cannot order keep a stable order by their
	// text; grouping is all that needs.
	return cmp.Compare(a.String(), b.String())
}

// NewTransaction starts a transaction on tbl whose snapshots write the data
// files they add into manifests grouped by ManifestGroups. Every lakesql
// commit that adds data files starts here.
func NewTransaction(tbl *table.Table) *table.Transaction {
	tx := tbl.NewTransaction()
	props := tbl.Properties()
	tx.SplitAddedManifests(func(spec iceberg.PartitionSpec, files []iceberg.DataFile) [][]iceberg.DataFile {
		return ManifestGroups(props, spec, files)
	})
	return tx
}

// manifestCluster names a group of ManifestGroups: the partition spec and
// the group's position among the spec's groups.
type manifestCluster struct{ spec, group int }

// ManifestRewrite is the plan of a rewrite of a snapshot's data manifests
// into the layout a commit writes (ManifestGroups over all their live
// files, spec by spec): iceberg-go's RewriteManifests with the options it
// returns writes the files of each group into manifests of their own,
// keeping every entry's status, snapshot id and sequence numbers.
type ManifestRewrite struct {
	cluster map[string]manifestCluster // live data file path → its group
	keep    map[string]bool            // manifest path → already holds exactly one group
}

// PlanManifestRewrite groups the live data files of snap's data manifests
// (of spec specID only, when not nil). A manifest that already holds
// exactly the files of one group, and no deleted entries, is left as it is.
func PlanManifestRewrite(ctx context.Context, fsys icebergio.IO, cache *ManifestCache, meta table.Metadata, snap *table.Snapshot, specID *int) (*ManifestRewrite, error) {
	plan := &ManifestRewrite{cluster: map[string]manifestCluster{}, keep: map[string]bool{}}
	if snap == nil {
		return plan, nil
	}
	manifests, entries, err := readSnapshotManifests(ctx, fsys, cache, snap, func(m iceberg.ManifestFile) bool {
		return m.ManifestContent() == iceberg.ManifestContentData && (specID == nil || int(m.PartitionSpecID()) == *specID)
	})
	if err != nil {
		return nil, err
	}
	bySpec := map[int][]iceberg.DataFile{}
	for i, m := range manifests {
		for _, e := range entries[i] {
			bySpec[int(m.PartitionSpecID())] = append(bySpec[int(m.PartitionSpecID())], e.DataFile())
		}
	}
	sizes := map[manifestCluster]int{}
	for id, files := range bySpec {
		spec := meta.PartitionSpecByID(id)
		if spec == nil {
			return nil, fmt.Errorf("partition spec %d is not in the table metadata", id)
		}
		for g, group := range ManifestGroups(meta.Properties(), *spec, files) {
			for _, df := range group {
				plan.cluster[df.FilePath()] = manifestCluster{id, g}
			}
			sizes[manifestCluster{id, g}] = len(group)
		}
	}
	for i, m := range manifests {
		if m.DeletedDataFiles() > 0 || len(entries[i]) == 0 {
			continue
		}
		first := plan.cluster[entries[i][0].DataFile().FilePath()]
		whole := sizes[first] == len(entries[i])
		for _, e := range entries[i] {
			whole = whole && plan.cluster[e.DataFile().FilePath()] == first
		}
		plan.keep[m.FilePath()] = whole
	}
	return plan, nil
}

// Options are the RewriteManifests options that carry out the plan.
func (p *ManifestRewrite) Options() []table.RewriteManifestsOpt {
	return []table.RewriteManifestsOpt{
		table.WithRewriteManifestPredicate(func(m iceberg.ManifestFile) bool { return !p.keep[m.FilePath()] }),
		table.WithRewriteManifestClusterBy(func(df iceberg.DataFile) any {
			if c, ok := p.cluster[df.FilePath()]; ok {
				return c
			}
			// Not in the planned snapshot: cannot happen under the
			// transaction's assertion that main is still there, and would
			// only get a manifest of its own.
			return manifestCluster{-1, -1}
		}),
	}
}
