package storage

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/table"
)

// daySpec is a table partitioned by day(ts), field id 1000.
var daySpec = iceberg.NewPartitionSpec(iceberg.PartitionField{SourceIDs: []int{2}, FieldID: 1000, Name: "ts_day", Transform: iceberg.DayTransform{}})

// dayFiles returns a data file per day of days (a nil day: the NULL
// partition), shuffled, as a writer may finish them.
func dayFiles(t *testing.T, days []*int32) []iceberg.DataFile {
	t.Helper()
	files := make([]iceberg.DataFile, len(days))
	for i, d := range days {
		part := map[int]any{1000: nil}
		if d != nil {
			part[1000] = *d
		}
		b, err := iceberg.NewDataFileBuilder(daySpec, iceberg.EntryContentData, fmt.Sprintf("s3://b/t/data/%05d.parquet", i), iceberg.ParquetFile, part, nil, nil, 10, 1000)
		if err != nil {
			t.Fatal(err)
		}
		files[i] = b.Build()
	}
	rand.New(rand.NewPCG(1, 2)).Shuffle(len(files), func(i, j int) { files[i], files[j] = files[j], files[i] })
	return files
}

func dayRun(from, n, perDay int) []*int32 {
	var out []*int32
	for d := range n {
		for range perDay {
			v := int32(from + d)
			out = append(out, &v)
		}
	}
	return out
}

// dayRange is the lowest and highest day of a group; NULL counts as -1.
func dayRange(group []iceberg.DataFile) (lo, hi int32) {
	lo, hi = 1<<30, -1<<30
	for _, df := range group {
		d := int32(-1)
		if v, ok := df.Partition()[1000].(int32); ok {
			d = v
		}
		lo, hi = min(lo, d), max(hi, d)
	}
	return lo, hi
}

// checkGroups checks that groups hold every file once and that their day
// ranges do not overlap, in order.
func checkGroups(t *testing.T, files []iceberg.DataFile, groups [][]iceberg.DataFile) {
	t.Helper()
	seen := map[string]int{}
	prev := int32(-1 << 30)
	for i, g := range groups {
		if len(g) == 0 {
			t.Fatalf("group %d is empty", i)
		}
		for _, df := range g {
			seen[df.FilePath()]++
		}
		lo, hi := dayRange(g)
		if lo <= prev {
			t.Errorf("group %d covers days %d..%d, overlapping the previous group (up to %d)", i, lo, hi, prev)
		}
		prev = hi
	}
	if len(seen) != len(files) {
		t.Fatalf("groups hold %d distinct files, want %d", len(seen), len(files))
	}
	for path, n := range seen {
		if n != 1 {
			t.Fatalf("%s is in %d groups", path, n)
		}
	}
}

func TestManifestGroupsClusterManyPartitions(t *testing.T) {
	files := dayFiles(t, dayRun(19000, 1095, 1))
	groups := ManifestGroups(nil, daySpec, files)
	checkGroups(t, files, groups)
	// √1095 rounds up to 34 files a group: 32 groups of 34 and one of 7.
	if len(groups) != 33 || len(groups[0]) != 34 || len(groups[32]) != 7 {
		t.Errorf("%d groups (first %d files, last %d), want 33 (34 and 7)", len(groups), len(groups[0]), len(groups[len(groups)-1]))
	}
}

func TestManifestGroupsCutOnlyBetweenPartitions(t *testing.T) {
	// 3 files a day: a group ends at a day's end, past its share of 32.
	files := dayFiles(t, dayRun(0, 40, 3))
	groups := ManifestGroups(nil, daySpec, files)
	checkGroups(t, files, groups)
	if len(groups) != 4 || len(groups[0]) != 33 {
		t.Errorf("%d groups, the first of %d files; want 4, the first of 33 (11 whole days)", len(groups), len(groups[0]))
	}
	// NULL sorts first and is a partition of its own.
	withNull := dayFiles(t, append(dayRun(0, 40, 1), nil, nil))
	groups = ManifestGroups(nil, daySpec, withNull)
	checkGroups(t, withNull, groups)
	if lo, _ := dayRange(groups[0]); lo != -1 {
		t.Errorf("the first group starts at day %d, want the NULL partition", lo)
	}
}

func TestManifestGroupsKeepSmallAndSinglePartitionCommitsWhole(t *testing.T) {
	for name, files := range map[string][]iceberg.DataFile{
		"32 files, 32 days":  dayFiles(t, dayRun(0, 32, 1)),
		"1000 files, 1 day":  dayFiles(t, dayRun(7, 1, 1000)),
		"one file":           dayFiles(t, dayRun(7, 1, 1)),
		"unpartitioned-like": dayFiles(t, []*int32{nil, nil, nil}),
	} {
		if groups := ManifestGroups(iceberg.Properties{}, daySpec, files); len(groups) != 1 || len(groups[0]) != len(files) {
			t.Errorf("%s: %d groups, want one of all %d files", name, len(groups), len(files))
		}
	}
	if groups := ManifestGroups(nil, daySpec, nil); groups != nil {
		t.Errorf("no files: %d groups, want none", len(groups))
	}
}

func TestManifestGroupsHonourTargetSize(t *testing.T) {
	files := dayFiles(t, dayRun(0, 1, 100)) // one day: only the size cuts
	entry := manifestEntryBytes(files[0])
	props := iceberg.Properties{table.ManifestTargetSizeBytesKey: fmt.Sprint(10 * entry)}
	groups := ManifestGroups(props, daySpec, files)
	if len(groups) != 10 {
		t.Fatalf("%d groups under a target of 10 entries' size, want 10", len(groups))
	}
	for _, g := range groups {
		var size int64
		for _, df := range g {
			size += manifestEntryBytes(df)
		}
		if size > 10*entry {
			t.Errorf("a group of %d estimated bytes, over the target %d", size, 10*entry)
		}
	}
}
