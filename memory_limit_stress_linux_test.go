package lakesql_test

import (
	"bufio"
	"bytes"
	"fmt"
	"os/exec"
	"slices"
	"strconv"
	"syscall"
	"testing"
	"time"
)

// peakRSSBound is the most resident memory a lakesql process under SET
// memory_limit = '1GB' may reach (issue 15): the limit bounds the heap the
// operators hold, and the rest is the runtime, the binary and the buffers of
// the spill files.
const peakRSSBound = 1536 << 20

// runMemoryBounded runs query in a lakesql process under SET memory_limit =
// '1GB', spilling to dir, and passes each line of its CSV output to line as
// it comes (10^7 rows need not be held). It fails the test if the process
// fails or its peak resident memory passes peakRSSBound.
func runMemoryBounded(t *testing.T, bin, dir, query string, line func(n int, text string)) {
	t.Helper()
	cmd := exec.Command(bin, "--warehouse", dir, "--format", "csv", "-e",
		"SET memory_limit = '1GB'; SET temp_directory = '"+dir+"'; "+query)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(stdout)
	n := 0
	for ; sc.Scan(); n++ {
		line(n, sc.Text())
	}
	err = cmd.Wait()
	took := time.Since(start).Round(time.Second)
	var peakRSS int64
	if usage, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		peakRSS = usage.Maxrss << 10 // Linux counts kilobytes
	}
	if err != nil {
		t.Fatalf("%s: %v after %s, peak RSS %d MiB:\n%s", query, err, took, peakRSS>>20, stderr.String())
	}
	t.Logf("%s: %d lines in %s, peak RSS %d MiB", query, n, took, peakRSS>>20)
	if peakRSS > peakRSSBound {
		t.Errorf("%s: peak RSS %d MiB under SET memory_limit = '1GB', want at most %d MiB", query, peakRSS>>20, peakRSSBound>>20)
	}
}

// A GROUP BY of 10^8 groups and an ORDER BY of 10^7 rows (of about 70
// bytes, more than the sort's share of the limit) without LIMIT finish under
// SET memory_limit = '1GB', each as a whole lakesql process whose peak
// resident memory stays under 1.5 GB, with the right answer. Minutes of
// work: only `make stress` runs it.
func TestLargeAggregationAndSortUnderMemoryLimit(t *testing.T) {
	if !stressMode() {
		t.Skip("runs for minutes: make stress runs it (LAKESQL_STRESS=1)")
	}
	bin := buildLakesql(t)
	dir := t.TempDir()

	var got []string
	runMemoryBounded(t, bin, dir,
		"SELECT count(*) AS groups, sum(c) AS rows, max(n) AS top FROM (SELECT n, count(*) AS c FROM range(100000000) AS r(n) GROUP BY n)",
		func(_ int, text string) { got = append(got, text) })
	if want := []string{"groups,rows,top", "100000000,100000000,99999999"}; !slices.Equal(got, want) {
		t.Errorf("GROUP BY of 10^8 groups returned %q, want %q", got, want)
	}

	// Within each k the n run down from the largest n with n % 1000 = k.
	const suffix = " of ten million sorted under the memory limit"
	rows, wrong := 0, ""
	runMemoryBounded(t, bin, dir,
		"SELECT n % 1000 AS k, n, 'row ' || CAST(n AS STRING) || '"+suffix+"' AS s FROM range(10000000) AS r(n) ORDER BY k, n DESC",
		func(i int, text string) {
			want := "k,n,s"
			if i > 0 {
				rows++
				k := (i - 1) / 10000
				n := strconv.Itoa(9999000 + k - 1000*((i-1)%10000))
				want = strconv.Itoa(k) + "," + n + ",row " + n + suffix
			}
			if text != want && wrong == "" {
				wrong = fmt.Sprintf("ORDER BY line %d is %q, want %q", i, text, want)
			}
		})
	if wrong != "" {
		t.Error(wrong)
	}
	if rows != 10000000 {
		t.Errorf("ORDER BY of 10^7 rows returned %d rows", rows)
	}
}
