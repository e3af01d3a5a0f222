package storage

import (
	"fmt"

	"github.com/apache/iceberg-go"
	icebergio "github.com/apache/iceberg-go/io"
	"github.com/apache/iceberg-go/table/dv"
)

// deletionVectorFile is the Puffin file of one or more deletion vectors
// (Iceberg format v3): a Puffin `deletion-vector-v1` blob per data file,
// each a portable 64-bit Roaring bitmap of deleted row positions.
type deletionVectorFile struct {
	path    string
	vectors []iceberg.DataFile // manifest entries of the blobs to read
	seqs    []int64            // their data sequence numbers
}

// readDeletionVectors reads the blobs of one Puffin file (its footer once)
// and returns, per referenced data file, the deleted positions in ascending
// order. iceberg-go's dv package checks the blob type, the length, magic and
// CRC, and that the blob's referenced-data-file and cardinality agree with
// the manifest entry.
func readDeletionVectors(fs icebergio.IO, f deletionVectorFile) (map[string]positionRun, error) {
	bitmaps, err := dv.ReadDVs(fs, f.vectors)
	if err != nil {
		return nil, fmt.Errorf("deletion vector file %s: %w", f.path, err)
	}
	out := make(map[string]positionRun, len(bitmaps))
	for i, bm := range bitmaps {
		ref := *f.vectors[i].ReferencedDataFile()
		if _, dup := out[ref]; dup {
			return nil, fmt.Errorf("deletion vector file %s holds two deletion vectors for data file %s", f.path, ref)
		}
		positions := make([]int64, 0, bm.Cardinality())
		for p := range bm.Positions() {
			positions = append(positions, int64(p))
		}
		out[ref] = positionRun{seq: f.seqs[i], positions: positions}
	}
	return out, nil
}

// deletionVectorTarget returns the data file a deletion vector deletes from;
// the spec requires every deletion vector to name it.
func deletionVectorTarget(df iceberg.DataFile) (string, error) {
	ref := df.ReferencedDataFile()
	if ref == nil || *ref == "" {
		return "", fmt.Errorf("deletion vector in %s names no referenced data file", df.FilePath())
	}
	if df.ContentOffset() == nil || df.ContentSizeInBytes() == nil {
		return "", fmt.Errorf("deletion vector in %s for %s has no content offset and size", df.FilePath(), *ref)
	}
	return *ref, nil
}
