package mysqlserver

import (
	"bytes"
	"flag"
	"os"
	"os/exec"
	"strings"
	"testing"
)

var rewrite = flag.Bool("rewrite", false, "rewrite testdata/mariadb/script.out with the mariadb client's output")

// The mariadb command-line client (Debian's mariadb-client, which .ci/run
// installs) runs a script of MySQL-dialect statements against the server;
// its output, errors included, must equal the golden file.
func TestMariadbClientGolden(t *testing.T) {
	client, err := exec.LookPath("mariadb")
	if err != nil {
		t.Skip("mariadb client not installed (apt-get install mariadb-client)")
	}
	srv := start(t, warehouse(t), nil)
	host, port, _ := strings.Cut(srv.Addr().String(), ":")
	script, err := os.Open("testdata/mariadb/script.sql")
	if err != nil {
		t.Fatal(err)
	}
	defer script.Close()
	// --force goes on after errors, which name the script's line;
	// --unbuffered keeps them (stderr) in order with results (stdout);
	// --table boxes results.
	cmd := exec.Command(client, "--no-defaults", "--host", host, "--port", port, "--user", "root", "--skip-ssl",
		"--force", "--unbuffered", "--table")
	cmd.Stdin = script
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err = cmd.Run()
	if _, exited := err.(*exec.ExitError); err != nil && !exited {
		t.Fatal(err) // the client failing on statement errors is expected
	}
	const golden = "testdata/mariadb/script.out"
	if *rewrite {
		if err := os.WriteFile(golden, out.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if got := out.String(); got != string(want) {
		t.Errorf("mariadb output differs from %s (go test -run TestMariadbClientGolden -rewrite):\n%s", golden, got)
	}
}
