package storage

import (
	"slices"
	"testing"

	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/table"
)

func deleteTestTable(t *testing.T) (table.Metadata, *iceberg.Schema, iceberg.PartitionSpec) {
	t.Helper()
	schema := iceberg.NewSchema(0,
		iceberg.NestedField{ID: 1, Name: "id", Type: iceberg.PrimitiveTypes.Int32},
		iceberg.NestedField{ID: 2, Name: "d", Type: iceberg.PrimitiveTypes.Date},
	)
	spec := iceberg.NewPartitionSpecID(0, iceberg.PartitionField{SourceIDs: []int{2}, FieldID: 1000, Name: "d", Transform: iceberg.IdentityTransform{}})
	meta, err := table.NewMetadata(schema, &spec, table.UnsortedSortOrder, "file:///tmp/t", iceberg.Properties{"format-version": "2"})
	if err != nil {
		t.Fatal(err)
	}
	return meta, meta.CurrentSchema(), meta.PartitionSpec()
}

func testFile(t *testing.T, spec iceberg.PartitionSpec, content iceberg.ManifestEntryContent, path string, partition map[int]any) iceberg.DataFile {
	t.Helper()
	b, err := iceberg.NewDataFileBuilder(spec, content, path, iceberg.ParquetFile, partition, nil, nil, 10, 100)
	if err != nil {
		t.Fatal(err)
	}
	if content == iceberg.EntryContentEqDeletes {
		b.EqualityFieldIDs([]int{1})
	}
	return b.Build()
}

// TestDeletesForFollowSequenceNumbers checks the spec's applicability rules:
// position deletes apply to data files of the same or a lower sequence
// number, equality deletes to strictly lower ones of the same partition.
func TestDeletesForFollowSequenceNumbers(t *testing.T) {
	meta, schema, spec := deleteTestTable(t)
	day := map[int]any{1000: iceberg.Date(20000)}
	otherDay := map[int]any{1000: iceberg.Date(20001)}
	d := &Deletes{meta: meta, schema: schema, positions: map[string][]positionRun{
		"a.parquet": {{seq: 2, positions: []int64{5, 1}}, {seq: 3, positions: []int64{1, 7}}},
	}}
	eq, err := d.newEqualityDeletes(testFile(t, spec, iceberg.EntryContentEqDeletes, "eq.parquet", day), 3)
	if err != nil {
		t.Fatal(err)
	}
	d.equality = []*EqualityDeletes{eq}

	cases := []struct {
		name      string
		file      ScanFileRef
		positions []int64
		equality  bool
	}{
		{"older file", ScanFileRef{File: testFile(t, spec, iceberg.EntryContentData, "a.parquet", day), Seq: 1}, []int64{1, 5, 7}, true},
		{"same commit as first delete", ScanFileRef{File: testFile(t, spec, iceberg.EntryContentData, "a.parquet", day), Seq: 2}, []int64{1, 5, 7}, true},
		{"same commit as equality delete", ScanFileRef{File: testFile(t, spec, iceberg.EntryContentData, "a.parquet", day), Seq: 3}, []int64{1, 7}, false},
		{"newer file", ScanFileRef{File: testFile(t, spec, iceberg.EntryContentData, "a.parquet", day), Seq: 4}, nil, false},
		{"other partition", ScanFileRef{File: testFile(t, spec, iceberg.EntryContentData, "b.parquet", otherDay), Seq: 1}, nil, false},
	}
	for _, c := range cases {
		got := d.For(c.file)
		if !slices.Equal(got.Positions, c.positions) || (len(got.Equality) == 1) != c.equality {
			t.Errorf("%s: positions %v, %d equality deletes; want %v, equality %v", c.name, got.Positions, len(got.Equality), c.positions, c.equality)
		}
	}
}

// TestPartitionKeyNormalizesValueTypes: manifests decode a date partition
// as iceberg.Date, transforms may produce int32 or a literal; all are one key.
func TestPartitionKeyNormalizesValueTypes(t *testing.T) {
	_, schema, spec := deleteTestTable(t)
	var keys []string
	for _, v := range []any{iceberg.Date(20000), int32(20000), iceberg.DateLiteral(20000)} {
		k, err := PartitionKey(spec, schema, map[int]any{1000: v})
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, k)
	}
	null, err := PartitionKey(spec, schema, map[int]any{1000: nil})
	if err != nil {
		t.Fatal(err)
	}
	if keys[0] != keys[1] || keys[0] != keys[2] || null == keys[0] {
		t.Fatalf("keys %q, null %q", keys, null)
	}
	if k, _ := PartitionKey(*iceberg.UnpartitionedSpec, schema, nil); k != "" {
		t.Fatalf("unpartitioned key %q, want empty", k)
	}
}

func TestReferencedDataFileFromBounds(t *testing.T) {
	_, _, spec := deleteTestTable(t)
	b, err := iceberg.NewDataFileBuilder(spec, iceberg.EntryContentPosDeletes, "del.parquet", iceberg.ParquetFile, nil, nil, nil, 1, 10)
	if err != nil {
		t.Fatal(err)
	}
	one := b.LowerBoundValues(map[int][]byte{posDeleteFilePathID: []byte("s3://b/a.parquet")}).
		UpperBoundValues(map[int][]byte{posDeleteFilePathID: []byte("s3://b/a.parquet")}).Build()
	if path, ok := referencedDataFile(one); !ok || path != "s3://b/a.parquet" {
		t.Fatalf("got %q, %v", path, ok)
	}
	b, _ = iceberg.NewDataFileBuilder(spec, iceberg.EntryContentPosDeletes, "del2.parquet", iceberg.ParquetFile, nil, nil, nil, 1, 10)
	many := b.LowerBoundValues(map[int][]byte{posDeleteFilePathID: []byte("a")}).
		UpperBoundValues(map[int][]byte{posDeleteFilePathID: []byte("b")}).Build()
	if _, ok := referencedDataFile(many); ok {
		t.Fatal("a delete file spanning several data files has no single referenced file")
	}
}
