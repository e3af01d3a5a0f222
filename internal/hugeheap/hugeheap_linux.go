package hugeheap

import (
	"bytes"
	"runtime"
	"syscall"
	"unsafe"
)

// reserve is the size of the block init allocates to make the runtime map
// that much heap at once: start-up and a small query's allocation fit in it.
const reserve = 32 << 20

// heapArena is the unit in which the Go runtime reserves address space for
// its heap on 64-bit Linux (heapArenaBytes). It maps, within an arena, the
// 4 MB chunks it uses; the rest stays reserved.
const heapArena = 64 << 20

// thpModePath holds the system's transparent huge page mode, the selected
// one in brackets: "always [madvise] never".
const thpModePath = "/sys/kernel/mm/transparent_hugepage/enabled"

// advised is the address range init advised, empty when it advised none;
// the test reads it.
var advised struct{ start, end uintptr }

// init grows the heap by one large allocation, which the runtime maps
// fresh and leaves untouched, drops it, and advises MADV_HUGEPAGE for the
// heap arenas it lies in: the part the runtime has mapped (the advice
// belongs to a mapping, and the runtime maps more heap later with none).
// The garbage collection that the allocation starts frees the block; a
// forced one in the background makes sure, without holding up the
// initialisers on this goroutine. Go's page allocator hands out the lowest
// free addresses first, so the allocations that follow fill the advised
// range, 2 MB per page fault, except in the 2 MB the runtime had already
// touched. Errors leave the heap as the runtime made it: this only changes
// speed.
func init() {
	if !madviseMode() {
		return
	}
	// Only the block's address is kept, as an integer: the block itself is
	// garbage at once, and advice for memory the runtime has reused is
	// still right.
	first := uintptr(unsafe.Pointer(unsafe.SliceData(make([]byte, reserve))))
	start := first &^ (heapArena - 1)
	end := (first + reserve + heapArena - 1) &^ (heapArena - 1)
	if _, _, errno := syscall.Syscall(syscall.SYS_MADVISE, start, end-start, syscall.MADV_HUGEPAGE); errno == 0 {
		advised.start, advised.end = start, end
	}
	go runtime.GC()
}

// madviseMode reports whether the kernel gives huge pages to the memory
// that asks and only to it. Under "always" every fault in a large enough
// range already gets one; under "never" (or without the file) none does,
// and the garbage collection would be spent for nothing.
func madviseMode() bool {
	fd, err := syscall.Open(thpModePath, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return false
	}
	defer syscall.Close(fd)
	var buf [64]byte
	n, err := syscall.Read(fd, buf[:])
	if err != nil || n <= 0 {
		return false
	}
	return bytes.Contains(buf[:n], []byte("[madvise]"))
}
