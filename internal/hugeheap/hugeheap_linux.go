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

// hugePage is the size of a transparent huge page on amd64 and arm64 with
// 4 KB pages: what one PMD entry maps.
const hugePage = 2 << 20

// collapseTries bounds the attempts to collapse one stretch: the kernel
// answers EAGAIN while a page in it is briefly held elsewhere (a freshly
// faulted page not yet on its LRU list), which passes.
const collapseTries = 3

// madvCollapse is MADV_COLLAPSE, which the syscall package does not name.
const madvCollapse = 25

// thpModePath holds the system's transparent huge page mode, the selected
// one in brackets: "always [madvise] never".
const thpModePath = "/sys/kernel/mm/transparent_hugepage/enabled"

// advised is the address range init advised, empty when it advised none;
// the test reads it.
var advised struct{ start, end uintptr }

// collapsed counts the 2 MB stretches of heap init had collapsed into huge
// pages; the test reads it.
var collapsed int

// refused is the kernel's last answer to a collapse other than done or
// not a heap stretch (ENOMEM: no free huge page at the time); the test
// reads it.
var refused syscall.Errno

// init grows the heap by one large allocation, which the runtime maps
// fresh and leaves untouched, drops it, and advises MADV_HUGEPAGE for the
// heap arenas it lies in: the part the runtime has mapped (the advice
// belongs to a mapping, and the runtime maps more heap later with none).
// A collection then frees the block at once: the heap is small this early
// (about 1 ms), and the lakesql command has turned the collector off until
// main (internal/gcpercent/initoff), so none would run before. Go's page
// allocator hands out the lowest free addresses first, so the allocations
// that follow fill the advised range, 2 MB per page fault. The 2 MB
// stretches the runtime had already touched, below the block or, when the
// block began a mapping of its own, around an object allocated just before,
// keep their 4 KB pages, since a fault only maps a huge page into an empty
// stretch; collapseFrom makes them huge too. Errors leave the heap as the
// runtime made it: this only changes speed.
func init() {
	if !madviseMode() {
		return
	}
	// Only the block's address is kept, as an integer: the block itself is
	// garbage at once, and advice for memory the runtime has reused is
	// still right.
	// A small object, stored where escape analysis sends it to the heap,
	// lies among the pages the runtime has touched.
	touchedProbe = new(byte)
	touched := uintptr(unsafe.Pointer(touchedProbe))
	touchedProbe = nil
	first := uintptr(unsafe.Pointer(unsafe.SliceData(make([]byte, reserve))))
	start := first &^ (heapArena - 1)
	end := (first + reserve + heapArena - 1) &^ (heapArena - 1)
	if _, _, errno := syscall.Syscall(syscall.SYS_MADVISE, start, end-start, syscall.MADV_HUGEPAGE); errno == 0 {
		advised.start, advised.end = start, end
		if !collapseFrom((first-1)&^(hugePage-1), -hugePage, start) {
			// The block began a mapping of its own: the touched pages lie
			// elsewhere, around the probe.
			at := touched &^ (hugePage - 1)
			collapseFrom(at, -hugePage, at&^(heapArena-1))
			collapseFrom(at+hugePage, hugePage, min(first, (at+heapArena)&^(heapArena-1)))
		}
	}
	runtime.GC()
}

// touchedProbe holds init's small object while its address is taken.
var touchedProbe *byte

// collapseFrom asks the kernel (MADV_COLLAPSE, Linux 6.1 and later) to
// turn the heap the runtime used before init into huge pages now, one 2 MB
// stretch at a time from the one at stretch, stepping by step, and not
// past limit (down to it, or up to before it). Each stretch holds hundreds
// of 4 KB pages the allocations to come would otherwise fault in one by
// one (about 300 faults, 10 ms, of `lakesql -e "SELECT 1"` on a VM). Since
// Go 1.26 the heap begins at a random place in its arena, around which the
// arena is reserved, not mapped: the first stretch the kernel refuses as
// such (EINVAL) ends the walk; older kernels refuse the first one. It
// reports whether the first stretch was heap.
func collapseFrom(stretch uintptr, step int, limit uintptr) bool {
	for i := 0; ; i++ {
		if step < 0 && stretch < limit || step > 0 && stretch >= limit {
			return i > 0
		}
		errno := syscall.EAGAIN
		for try := 0; try < collapseTries && errno == syscall.EAGAIN; try++ {
			_, _, errno = syscall.Syscall(syscall.SYS_MADVISE, stretch, hugePage, madvCollapse)
		}
		switch errno {
		case 0:
			collapsed++
		case syscall.EINVAL:
			return i > 0
		default:
			refused = errno
		}
		stretch = uintptr(int(stretch) + step)
	}
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
