package planner

import "context"

// FileAccess decides whether a statement may read (write false) or write a
// file outside the warehouse's tables: DuckDB's enable_external_access and
// allowed_directories, and a read-only session's refusal to write. nil
// allows everything.
type FileAccess func(path string, write bool) error

type fileAccessKey struct{}

// WithFileAccess returns ctx carrying the session's file access policy.
func WithFileAccess(ctx context.Context, fa FileAccess) context.Context {
	return context.WithValue(ctx, fileAccessKey{}, fa)
}

// CheckFileAccess applies ctx's file access policy to path.
func CheckFileAccess(ctx context.Context, path string, write bool) error {
	if ctx == nil {
		return nil
	}
	if fa, _ := ctx.Value(fileAccessKey{}).(FileAccess); fa != nil {
		return fa(path, write)
	}
	return nil
}
