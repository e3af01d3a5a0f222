//go:build gcs

package storage

// Google Cloud Storage (gs://) through iceberg-go's gocloud I/O, configured
// with the Iceberg gcs.* properties; linked only with -tags gcs
// (schemeBuildTags says why).
import _ "github.com/apache/iceberg-go/io/gocloud/gcs"
