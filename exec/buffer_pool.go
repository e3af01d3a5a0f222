package exec

import (
	"math/bits"
	"sync"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// bufferPool is the allocator queries run on. A scan allocates every
// batch's buffers afresh, at hundreds of megabytes a second, and releases
// them a few operators later; with Go's allocator each is zeroed page by
// page and later found by the garbage collector. The pool hands buffers
// released into it back out instead, by power-of-two size class, cleared.
// Small buffers go to Go's allocator, which is fast for them.
type bufferPool struct {
	classes [maxPooledShift - minPooledShift + 1]sync.Pool
	// poison fills released buffers with garbage, so that reading a buffer
	// after its release (a reference counting bug) shows in tests.
	poison bool
}

const (
	minPooledShift = 12 // 4 KiB
	maxPooledShift = 27 // 128 MiB
	poisonByte     = 0xa5
)

var (
	goAllocator = memory.NewGoAllocator()
	queryPool   = &bufferPool{}
)

// PoisonReleasedBuffers makes the query allocator fill every buffer released
// into it with garbage before reuse; tests turn it on to catch reads of
// released batches.
func PoisonReleasedBuffers() { queryPool.poison = true }

// sizeClass is the pool class of a buffer of size bytes, or -1 when it is
// not pooled.
func sizeClass(size int) int {
	shift := bits.Len(uint(size - 1))
	if size <= 0 || shift < minPooledShift || shift > maxPooledShift {
		return -1
	}
	return shift - minPooledShift
}

// AllocatesZeroed marks the pool as handing out zeroed memory.
func (p *bufferPool) AllocatesZeroed() {}

func (p *bufferPool) Allocate(size int) []byte {
	c := sizeClass(size)
	if c < 0 {
		return goAllocator.Allocate(size)
	}
	var buf []byte
	if b, ok := p.classes[c].Get().(*[]byte); ok {
		buf = *b
		clear(buf[:size]) // Go's allocator zeroes; code may rely on it
	} else {
		// Go's allocator aligns to 64 bytes.
		buf = goAllocator.Allocate(1 << (c + minPooledShift))
	}
	// Arrow's kernels take cap as the room reserved, so cap is size.
	return buf[:size:size]
}

// Reallocate leaves the old buffer to the garbage collector, as Go's
// allocator does: slices of it may still be held where it grew (a decoder
// reserving more room), so it must not be handed out again.
func (p *bufferPool) Reallocate(size int, b []byte) []byte {
	if cap(b) >= size {
		return b[:size]
	}
	out := p.Allocate(size)
	copy(out, b)
	return out
}

// Free takes back buffers of a pooled class; others are left to the
// garbage collector. A pooled buffer's cap is the size first asked for;
// its allocation spans the whole class.
func (p *bufferPool) Free(b []byte) {
	c := sizeClass(cap(b))
	if c < 0 {
		return
	}
	full := unsafe.Slice(unsafe.SliceData(b), 1<<(c+minPooledShift))
	if p.poison {
		for i := range full {
			full[i] = poisonByte
		}
	}
	p.classes[c].Put(&full)
}
