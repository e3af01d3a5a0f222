//go:build gcs

package storage

// Google Cloud Storage (gs://) through iceberg-go's gocloud I/O, configured
// with the Iceberg gcs.* properties; linked only with -tags gcs
// (schemeBuildTags says why).
import (
	"cloud.google.com/go/storage"
	_ "github.com/apache/iceberg-go/io/gocloud/gcs"
	"gocloud.dev/blob"
)

func init() { bucketSetups["gs"] = boundGCSRetries }

// gcsMaxAttempts bounds the tries of one GCS request. Google's client
// retries a transient failure (a refused or reset connection, 429, 5xx)
// with growing pauses until the request's context ends, and lakesql's
// requests carry no deadline (a long scan must not be cut short): a store
// that cannot be reached would hang the statement for ever. Five tries
// span about 15 seconds of backoff.
const gcsMaxAttempts = 5

// boundGCSRetries makes the bucket's client give up after gcsMaxAttempts.
func boundGCSRetries(b *blob.Bucket) {
	var client *storage.Client
	if b.As(&client) {
		client.SetRetry(storage.WithMaxAttempts(gcsMaxAttempts))
	}
}
