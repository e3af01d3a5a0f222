package storage

import (
	"context"
	"errors"
	"fmt"
	"net/url"

	icebergio "github.com/apache/iceberg-go/io"
	"github.com/apache/iceberg-go/io/gocloud/blobfs"
	"gocloud.dev/blob"

	// Azure Data Lake / Blob Storage (abfs[s]://, wasb[s]://) through
	// iceberg-go's gocloud I/O, configured with the Iceberg adls.*
	// properties; Google Cloud Storage (gs://, gcs.*) is in object_gcs.go.
	_ "github.com/apache/iceberg-go/io/gocloud/azure"
)

// cloudSchemes are the schemes of the gocloud backends lakesql builds on
// (gs only with -tags gcs).
var cloudSchemes = []string{"abfs", "abfss", "wasb", "wasbs", "gs"}

// init puts, in iceberg-go's registry, lakesql's object I/O over each
// cloud backend in place of the backend's own file system, as object_io.go
// does for S3: every catalog iceberg-go runs for lakesql (filesystem, SQL,
// REST) then reads with ranged GETs, commits with conditional writes and
// fails with one-line errors on gs:// and abfs:// too. The backend still
// opens the bucket, with its properties (icebergio.Lookup is lakesql's
// patch to iceberg-go).
func init() {
	for _, scheme := range cloudSchemes {
		open, ok := icebergio.Lookup(scheme)
		if !ok {
			continue
		}
		icebergio.Unregister(scheme)
		icebergio.Register(scheme, func(ctx context.Context, location *url.URL, props map[string]string) (icebergio.IO, error) {
			fsys, err := open(ctx, location, props)
			if err != nil {
				return nil, oneLine(err)
			}
			return asObjectIO(ctx, fsys, location), nil
		})
	}
}

// schemeBuildTags name the build tag that links the backend of a scheme
// lakesql does not link by default: Google's client (with gRPC's xDS and
// monitoring packages) adds about 2 MB to the allocations of every start,
// twice the budget of cmd/lakesql's startup test, so gs:// is opt-in.
var schemeBuildTags = map[string]string{"gs": "gcs"}

// bucketSetups adjust, by scheme, the client of a bucket iceberg-go opened,
// before lakesql uses it (object_gcs.go bounds Google's retries).
var bucketSetups = map[string]func(*blob.Bucket){}

// unlinkedScheme is the error for a location whose scheme's backend this
// build does not link; nil when it is linked, or no build tag links it.
func unlinkedScheme(bucket string, location *url.URL, err error) error {
	tag, ok := schemeBuildTags[location.Scheme]
	if !ok || !errors.Is(err, icebergio.ErrIOSchemeNotFound) {
		return nil
	}
	return fmt.Errorf("open %s: %s:// locations need a lakesql built with -tags %s (go build -tags %s ./cmd/lakesql)", bucket, location.Scheme, tag, tag)
}

// asObjectIO gives a bucket iceberg-go opened for a gs:// or abfs://
// location (its *blobfs.FileIO) lakesql's object I/O, as openS3 does for
// S3: ranged reads of what a scan asks, conditional writes, listing and
// batch deletes; ctx is the one it was opened with. Other file systems are
// returned as they are.
func asObjectIO(ctx context.Context, fsys icebergio.IO, location *url.URL) icebergio.IO {
	b, ok := fsys.(*blobfs.FileIO)
	if !ok {
		return fsys
	}
	if setup := bucketSetups[location.Scheme]; setup != nil {
		setup(b.Bucket)
	}
	extract := blobfs.DefaultObjectLocationExtractor(objectAuthority(location), location.Scheme)
	return &ObjectIO{FileIO: b, extract: extract, ctx: ctx, bucket: location.Host}
}

// objectAuthority is what names a location's bucket: its host, and for
// Azure the container before it (abfs://container@account.dfs.core.windows.net).
func objectAuthority(location *url.URL) string {
	if location.User != nil {
		return location.User.String() + "@" + location.Host
	}
	return location.Host
}
