package exec

import (
	"context"

	computeexec "github.com/apache/arrow-go/v18/arrow/compute/exec"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// allocator returns the memory allocator operators use for a query: the one
// attached to ctx with WithAllocator, or the query buffer pool.
func allocator(ctx context.Context) memory.Allocator {
	if mem, ok := ctx.Value(allocatorKey{}).(memory.Allocator); ok {
		return mem
	}
	return queryPool
}

type allocatorKey struct{}

// WithAllocator returns a context whose operators, and Arrow's compute
// kernels, allocate from mem (tests use a checked allocator to find leaks).
func WithAllocator(ctx context.Context, mem memory.Allocator) context.Context {
	return context.WithValue(computeexec.WithAllocator(ctx, mem), allocatorKey{}, mem)
}
