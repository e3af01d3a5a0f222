package planner

import (
	"context"
	"time"
)

type statementTimeKey struct{}

// WithStatementTime returns a context whose statements take t as their time:
// now(), current_timestamp, current_date and current_time all read it. Tests
// and reproducible runs fix the clock this way; without it a statement reads
// the wall clock once, when it first needs the time.
func WithStatementTime(ctx context.Context, t time.Time) context.Context {
	return context.WithValue(ctx, statementTimeKey{}, t)
}

// statementTime is the time of the statement, fixed on first use so that
// every reference to the current time in one statement agrees.
func (b *binder) statementTime() time.Time {
	if b.now.IsZero() {
		b.now = time.Now().UTC()
		if b.ctx != nil {
			if t, ok := b.ctx.Value(statementTimeKey{}).(time.Time); ok {
				b.now = t.UTC()
			}
		}
	}
	return b.now
}
