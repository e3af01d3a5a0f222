package exec

import (
	"testing"
	"unsafe"
)

// TestBufferPoolReusesZeroedAlignedBuffers checks what Arrow relies on:
// buffers are zeroed, 64-byte aligned and their cap is the size asked for,
// also when they come back out of the pool.
func TestBufferPoolReusesZeroedAlignedBuffers(t *testing.T) {
	p := &bufferPool{poison: true}
	for _, size := range []int{0, 100, 4096, 5000, 1 << 17, 3<<16 + 7} {
		for round := range 3 {
			b := p.Allocate(size)
			if len(b) != size || cap(b) != size {
				t.Fatalf("size %d round %d: len %d cap %d", size, round, len(b), cap(b))
			}
			if size > 0 && uintptr(unsafe.Pointer(&b[0]))%64 != 0 {
				t.Fatalf("size %d round %d: not 64-byte aligned", size, round)
			}
			for i, x := range b {
				if x != 0 {
					t.Fatalf("size %d round %d: byte %d is %#x, not zero", size, round, i, x)
				}
			}
			for i := range b {
				b[i] = 0xff
			}
			grown := p.Reallocate(size+1, b)
			if len(grown) != size+1 || grown[size] != 0 || (size > 0 && grown[0] != 0xff) {
				t.Fatalf("size %d round %d: reallocate lost or invented bytes", size, round)
			}
			p.Free(grown)
		}
	}
	if sizeClass(1<<12) != 0 || sizeClass(1<<12+1) != 1 || sizeClass(100) != -1 || sizeClass(1<<30) != -1 {
		t.Fatal("size classes are off")
	}
}
