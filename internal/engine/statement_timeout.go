package engine

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// ErrStatementTimeout is the kind of error for a statement stopped by
// statement_timeout.
var ErrStatementTimeout = errors.New("statement timeout")

// SetStatementTimeout sets statement_timeout (0: no limit).
func (s *Session) SetStatementTimeout(d time.Duration) { s.settings.statementTimeout = max(d, 0) }

// StatementContext returns ctx bounded by the session's statement_timeout,
// and the function that releases it (when the statement's result is
// closed).
func (s *Session) StatementContext(ctx context.Context) (context.Context, context.CancelFunc) {
	if s.settings.statementTimeout <= 0 {
		return ctx, func() {}
	}
	return context.WithTimeout(ctx, s.settings.statementTimeout)
}

// TimeoutError says, in one line, that err is the statement timeout's doing
// when it is; other errors pass unchanged.
func (s *Session) TimeoutError(ctx context.Context, err error) error {
	if err == nil || !errors.Is(err, context.DeadlineExceeded) || s.settings.statementTimeout <= 0 || ctx.Err() == nil {
		return err
	}
	return fmt.Errorf("%w: the statement ran longer than %s and was stopped (SET statement_timeout = 0 turns the limit off)", ErrStatementTimeout, s.settings.statementTimeout)
}

// Bound ties the result to its statement's context: Close releases it, and
// under a statement_timeout Next stops at the statement's deadline; under
// the session's own memory_limit its operators spill and stop by that
// (without either, Next adds nothing to its caller's context).
func (r *Result) Bound(stmtCtx context.Context, release context.CancelFunc, s *Session) {
	r.release = release
	r.memoryLimit = s.settings.memoryLimit
	if s.settings.statementTimeout > 0 {
		r.stmtCtx, r.session = stmtCtx, s
	}
}

// parseDuration reads the value of setting name (statement_timeout,
// commit_retry_timeout) as PostgreSQL and DuckDB write durations: a number
// of milliseconds, or a number with a unit (ms, s, min, h, d; Go's forms
// such as 1m30s too).
func parseDuration(name, text string) (time.Duration, error) {
	text = strings.ToLower(strings.TrimSpace(text))
	if n, err := strconv.ParseInt(text, 10, 64); err == nil && n >= 0 {
		return time.Duration(n) * time.Millisecond, nil
	}
	units := []struct {
		suffix string
		unit   time.Duration
	}{{"ms", time.Millisecond}, {"min", time.Minute}, {"s", time.Second}, {"h", time.Hour}, {"d", 24 * time.Hour}}
	for _, u := range units {
		if num, ok := strings.CutSuffix(text, u.suffix); ok {
			if f, err := strconv.ParseFloat(strings.TrimSpace(num), 64); err == nil && f >= 0 {
				return time.Duration(f * float64(u.unit)), nil
			}
		}
	}
	if d, err := time.ParseDuration(text); err == nil && d >= 0 {
		return d, nil
	}
	return 0, fmt.Errorf("SET %s takes a duration such as '30s', '5min' or 1000 (milliseconds), not %q", name, text)
}
