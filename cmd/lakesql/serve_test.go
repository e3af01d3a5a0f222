package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// serve's command-line mistakes are usage errors that say what to write.
func TestServeUsageErrors(t *testing.T) {
	dir := t.TempDir()
	users := filepath.Join(dir, "users")
	if err := os.WriteFile(users, []byte("# analysts\nann:pw\nbroken line\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"serve"}, exitUsage, "Error: serve: --mysql ADDRESS or --rest ADDRESS is required (e.g. --mysql 127.0.0.1:3306, --rest 127.0.0.1:8181)"},
		{[]string{"serve", "--mysql", "127.0.0.1:0", "--password", "x"}, exitUsage, "Error: serve: --password needs --user"},
		{[]string{"serve", "--mysql", "127.0.0.1:0", "--user", "a", "--users", users}, exitUsage, "Error: serve: --users and --user are exclusive"},
		{[]string{"serve", "--mysql", "127.0.0.1:0", "--tls-cert", "c.pem"}, exitUsage, "Error: serve: --tls-cert and --tls-key go together"},
		{[]string{"serve", "--mysql", "127.0.0.1:0", "extra"}, exitUsage, `Error: serve: unexpected argument "extra"`},
		{[]string{"serve", "--mysql", "127.0.0.1:0", "--users", users, "--warehouse", dir}, exitError, "serve: " + users + ":3: want name:password"},
		{[]string{"serve", "--mysql", "127.0.0.1:0", "--warehouse", filepath.Join(dir, "none")}, exitError, "serve: warehouse " + filepath.Join(dir, "none") + ": no such file or directory"},
	}
	for _, c := range cases {
		var stdout, stderr bytes.Buffer
		code := run(c.args, strings.NewReader(""), &stdout, &stderr)
		if code != c.code || !strings.Contains(stderr.String(), c.want) {
			t.Errorf("%v: exit %d, stderr %q; want %d, %q", c.args, code, stderr.String(), c.code, c.want)
		}
	}
}
