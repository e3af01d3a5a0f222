// Package exec holds lakesql's physical operators. Each pulls Arrow record
// batches from its input and produces record batches.
package exec

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
)

// BatchSize is the number of rows operators aim for in one record batch.
const BatchSize = 8192

// Operator is a pull-based physical operator.
//
// Next returns the next batch, or (nil, nil) at the end. The caller owns the
// returned batch and must Release it. Close releases the operator's resources
// and may be called at any time, also before the end of the stream.
type Operator interface {
	Schema() *arrow.Schema
	Open(ctx context.Context) error
	Next(ctx context.Context) (arrow.RecordBatch, error)
	Close() error
}
