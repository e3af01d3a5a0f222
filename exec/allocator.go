package exec

import (
	"context"

	computeexec "github.com/apache/arrow-go/v18/arrow/compute/exec"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// allocator returns the memory allocator operators use for a query: the one
// attached to ctx with WithAllocator, or the default.
func allocator(ctx context.Context) memory.Allocator {
	return computeexec.GetAllocator(ctx)
}

// WithAllocator returns a context whose operators allocate from mem (tests
// use a checked allocator to find leaks).
func WithAllocator(ctx context.Context, mem memory.Allocator) context.Context {
	return computeexec.WithAllocator(ctx, mem)
}
