package hugeheap

import (
	"bufio"
	"os"
	"runtime"
	"strconv"
	"strings"
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
	runtime.GC() // the block init dropped is free after this
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
