package hugeheap

import (
	"bufio"
	"os"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"unsafe"
)

// TestHeapIsAdvisedForHugePages checks, where the kernel gives huge pages
// on request, that init advised the heap and that the kernel recorded it:
// allocations made after init lie in the advised range, and the mapping
// holding them carries the "hg" (MADV_HUGEPAGE) flag in /proc/self/smaps.
func TestHeapIsAdvisedForHugePages(t *testing.T) {
	if !madviseMode() {
		t.Skipf("%s does not select madvise; init leaves the heap alone", thpModePath)
	}
	if advised.start == 0 || advised.end <= advised.start {
		t.Fatalf("init advised no range")
	}
	buf := make([]byte, 1<<20)
	addr := uintptr(unsafe.Pointer(unsafe.SliceData(buf)))
	if addr < advised.start || addr >= advised.end {
		t.Fatalf("a 1 MB allocation at %#x lies outside the advised range %#x-%#x", addr, advised.start, advised.end)
	}
	flags := vmFlags(t, addr)
	if !strings.Contains(" "+flags+" ", " hg ") {
		t.Errorf("the mapping holding %#x has VmFlags %q, without hg", addr, flags)
	}
	runtime.KeepAlive(buf)
}

// TestTouchedHeapIsCollapsed checks, where the kernel can collapse memory
// into huge pages on request (MADV_COLLAPSE), that init had it collapse
// the heap the runtime had touched before it.
func TestTouchedHeapIsCollapsed(t *testing.T) {
	if !madviseMode() {
		t.Skipf("%s does not select madvise; init leaves the heap alone", thpModePath)
	}
	if !kernelCollapses(t) {
		t.Skip("this kernel has no MADV_COLLAPSE")
	}
	switch {
	case collapsed > 0:
	case refused == syscall.ENOMEM || refused == syscall.EAGAIN || refused == syscall.EBUSY:
		t.Skipf("the kernel could not collapse when init asked (%v): no free huge page, or pages busy", refused)
	default:
		t.Errorf("init collapsed no 2 MB stretch of the heap below %#x (last refusal: %v)", advised.start, refused)
	}
}

// kernelCollapses reports whether MADV_COLLAPSE works on a mapping of its
// own: 4 MB, so that it holds an aligned 2 MB stretch, one page touched.
func kernelCollapses(t *testing.T) bool {
	mem, err := syscall.Mmap(-1, 0, 2*hugePage, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Munmap(mem)
	base := uintptr(unsafe.Pointer(unsafe.SliceData(mem)))
	stretch := (base + hugePage - 1) &^ (hugePage - 1)
	mem[stretch-base] = 1
	if _, _, errno := syscall.Syscall(syscall.SYS_MADVISE, stretch, hugePage, syscall.MADV_HUGEPAGE); errno != 0 {
		t.Fatalf("MADV_HUGEPAGE: %v", errno)
	}
	_, _, errno := syscall.Syscall(syscall.SYS_MADVISE, stretch, hugePage, madvCollapse)
	return errno == 0
}

// vmFlags returns the VmFlags line of the mapping in /proc/self/smaps that
// holds addr.
func vmFlags(t *testing.T, addr uintptr) string {
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Skipf("no smaps: %v", err)
	}
	defer f.Close()
	inside := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if lo, hi, ok := mappingRange(line); ok {
			inside = lo <= addr && addr < hi
			continue
		}
		if inside && strings.HasPrefix(line, "VmFlags:") {
			return strings.TrimSpace(strings.TrimPrefix(line, "VmFlags:"))
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	t.Fatalf("no mapping in /proc/self/smaps holds %#x", addr)
	return ""
}

// mappingRange parses the "lo-hi perms …" header line of a mapping.
func mappingRange(line string) (lo, hi uintptr, ok bool) {
	field, _, _ := strings.Cut(line, " ")
	a, b, found := strings.Cut(field, "-")
	if !found {
		return 0, 0, false
	}
	l, err1 := strconv.ParseUint(a, 16, 64)
	h, err2 := strconv.ParseUint(b, 16, 64)
	if err1 != nil || err2 != nil {
		return 0, 0, false
	}
	return uintptr(l), uintptr(h), true
}
