package lakesql_test

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestCommandCollectsGarbageAfterStart runs the lakesql binary, whose
// imports turn the garbage collector off for initialisation
// (internal/gcpercent/initoff), on a query that allocates about 60 MB, and
// checks from its gctrace that main turned the collector on again: with
// GOGC unset it collects, with GOGC=off (the environment wins) it does not.
// Collections marked "(forced)" are internal/hugeheap's, which runs
// whatever GOGC says.
func TestCommandCollectsGarbageAfterStart(t *testing.T) {
	bin := buildLakesql(t)
	query := "SELECT max(length(s)) FROM (SELECT repeat('x', 100) || CAST(i AS VARCHAR) AS s FROM generate_series(1, 300000) t(i))"
	for _, tc := range []struct {
		gogc        string // "" leaves GOGC unset
		wantCollect bool
	}{{"", true}, {"off", false}} {
		cmd := exec.Command(bin, "-e", query)
		for _, kv := range os.Environ() {
			if !strings.HasPrefix(kv, "GOGC=") && !strings.HasPrefix(kv, "GODEBUG=") {
				cmd.Env = append(cmd.Env, kv)
			}
		}
		cmd.Env = append(cmd.Env, "GODEBUG=gctrace=1", "LAKESQL_WAREHOUSE="+t.TempDir())
		if tc.gogc != "" {
			cmd.Env = append(cmd.Env, "GOGC="+tc.gogc)
		}
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("GOGC=%q: %v\n%s", tc.gogc, err, out)
		}
		collections := 0
		for _, line := range strings.Split(string(out), "\n") {
			if strings.HasPrefix(line, "gc ") && !strings.HasSuffix(line, "(forced)") {
				collections++
			}
		}
		if got := collections > 0; got != tc.wantCollect {
			t.Errorf("GOGC=%q: %d collections, want some: %v\n%s", tc.gogc, collections, tc.wantCollect, out)
		}
	}
}
