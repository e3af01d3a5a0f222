package main

import (
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// initBudget bounds what the package initialisers of the lakesql binary may
// allocate. Every `lakesql -e` pays for them before any work — on a virtual
// machine each fresh 4 KB heap page is a page fault of tens of microseconds —
// and past 4 MB the first garbage collection starts before main does.
// Upstream iceberg-go alone allocated 33 MB there; third_party/ holds it,
// patched to leave Substrait (and with it cockroachdb/apd's ln 10 at every
// precision) out of the binary, and jinzhu/inflection (bun's plural rules,
// 0.56 MB), patched to compile on first use. What is left is 3.0 MB:
// arrow/compute's function registry (0.56 MB), the TiDB parser (0.7 MB),
// iceberg-go's Avro schemas, protobuf descriptors of Flight and vitess, and
// the AWS SDK's endpoint tables.
const initBudget = 3<<20 + 256<<10

// TestPackageInitialisersStayCheap runs this test binary, which links the
// same packages as lakesql, with GODEBUG=inittrace=1 and sums the bytes the
// initialisers allocate. Allocation, unlike time, does not depend on the
// machine's load. With gctrace=1 it also checks that no garbage collection
// runs during initialisation but the one internal/hugeheap forces to free
// its block: internal/gcpercent/initoff, imported by main.go, must keep the
// collector off until main.
func TestPackageInitialisersStayCheap(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GOGC=") && !strings.HasPrefix(kv, "GODEBUG=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, "GODEBUG=inittrace=1,gctrace=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	total, worst, worstBytes := 0, "", 0
	for _, line := range strings.Split(string(out), "\n") {
		if strings.HasPrefix(line, "gc ") && !hugeheapGC(line) {
			t.Errorf("a garbage collection ran during package initialisation: %s", line)
		}
		// init github.com/x/y @12 ms, 1.5 ms clock, 1234 bytes, 5 allocs
		f := strings.Fields(line)
		if len(f) < 10 || f[0] != "init" || f[8] != "bytes," || f[1] == hugeheapPkg {
			continue
		}
		n, err := strconv.Atoi(f[7])
		if err != nil {
			t.Fatalf("unexpected inittrace line %q", line)
		}
		total += n
		if n > worstBytes {
			worst, worstBytes = f[1], n
		}
	}
	if total == 0 {
		t.Fatalf("no inittrace output: %s", out)
	}
	if total > initBudget {
		t.Errorf("package initialisers allocate %d bytes, budget %d; the largest is %s with %d bytes", total, initBudget, worst, worstBytes)
	}
}

const hugeheapPkg = "github.com/lakesql/lakesql/internal/hugeheap"

// hugeheapGC reports whether a gctrace line is the collection
// internal/hugeheap forces to free its 32 MB block
// ("gc 1 @0.011s 2%: …, 32->32->0 MB, … (forced)").
func hugeheapGC(line string) bool {
	if !strings.HasSuffix(line, "(forced)") {
		return false
	}
	_, sizes, ok := strings.Cut(line, " ms cpu, ")
	if !ok {
		return false
	}
	before, _, ok := strings.Cut(sizes, "->")
	n, err := strconv.Atoi(before)
	return ok && err == nil && n >= 32
}

// unlinked lists import-path prefixes lakesql keeps out of its binary, with
// what linking them would cost every start-up.
var unlinked = map[string]string{
	"github.com/substrait-io/": "Substrait's protobuf descriptors, extension YAML and " +
		"decimal tables, 0.27 MB allocated at init and 5 MB of binary; only " +
		"iceberg-go's row filters need it (third_party/iceberg-go/LAKESQL-PATCH.md)",
}

// TestStartupKeepsHeavyPackagesUnlinked checks the binary's import graph, as
// `go list -deps` sees it, against unlinked: an import added anywhere (ours
// or a dependency's) that pulls one of them back in fails here.
func TestStartupKeepsHeavyPackagesUnlinked(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	for _, pkg := range strings.Fields(string(out)) {
		for prefix, cost := range unlinked {
			if strings.HasPrefix(pkg, prefix) {
				t.Errorf("lakesql links %s: %s", pkg, cost)
			}
		}
	}
}
