package exec

import (
	"context"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
)

// OperatorMetrics is what EXPLAIN ANALYZE reports per operator.
type OperatorMetrics struct {
	Rows    int64
	Batches int64
	// Time includes the time spent in the operator's inputs.
	Time time.Duration
}

// metered counts the rows and time of the operator it wraps.
type metered struct {
	Operator
	m *OperatorMetrics
}

func newMetered(op Operator, m *OperatorMetrics) Operator { return &metered{Operator: op, m: m} }

func (o *metered) Open(ctx context.Context) error {
	start := time.Now()
	defer func() { o.m.Time += time.Since(start) }()
	return o.Operator.Open(ctx)
}

func (o *metered) Next(ctx context.Context) (arrow.RecordBatch, error) {
	start := time.Now()
	batch, err := o.Operator.Next(ctx)
	o.m.Time += time.Since(start)
	if batch != nil {
		o.m.Rows += batch.NumRows()
		o.m.Batches++
	}
	return batch, err
}
