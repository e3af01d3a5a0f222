package storage

import (
	"context"
	"net/url"

	icebergio "github.com/apache/iceberg-go/io"
	"github.com/apache/iceberg-go/io/gocloud/blobfs"

	// Google Cloud Storage (gs://) and Azure Data Lake / Blob Storage
	// (abfs[s]://, wasb[s]://) through iceberg-go's gocloud I/O, configured
	// with the Iceberg gcs.* and adls.* properties.
	_ "github.com/apache/iceberg-go/io/gocloud/azure"
	_ "github.com/apache/iceberg-go/io/gocloud/gcs"
)

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
