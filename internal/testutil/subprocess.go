package testutil

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// goTool is a Go command the tests run as a server, built from the module
// proxy once per machine and kept in the user cache folder, keyed by
// version (the main module's go.mod does not depend on it).
type goTool struct {
	module, version string
	pkg             string // the command's package in the module: "." or "./cmd/x"

	once sync.Once
	bin  string
	err  error
}

// binary builds the command unless it is in the cache folder.
func (g *goTool) binary() (string, error) {
	g.once.Do(func() {
		name := g.module[strings.LastIndex(g.module, "/")+1:]
		bin := filepath.Join(toolCache(), name+"-"+g.version)
		if _, err := os.Stat(bin); err == nil {
			g.bin = bin
			return
		}
		module := g.module + "@" + g.version
		out, err := exec.Command("go", "mod", "download", "-json", module).Output()
		if err != nil {
			g.err = fmt.Errorf("go mod download %s: %v", module, err)
			return
		}
		var mod struct{ Dir string }
		if err := json.Unmarshal(out, &mod); err != nil || mod.Dir == "" {
			g.err = fmt.Errorf("go mod download %s: no module folder", module)
			return
		}
		if err := os.MkdirAll(filepath.Dir(bin), 0o755); err != nil {
			g.err = err
			return
		}
		tmp := fmt.Sprintf("%s.%d.tmp", bin, os.Getpid())
		build := exec.Command("go", "build", "-o", tmp, g.pkg)
		build.Dir = mod.Dir
		build.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
		var stderr bytes.Buffer
		build.Stderr = &stderr
		if err := build.Run(); err != nil {
			g.err = fmt.Errorf("build %s: %v: %s", module, err, bytes.TrimSpace(stderr.Bytes()))
			return
		}
		if err := os.Rename(tmp, bin); err != nil {
			g.err = err
			return
		}
		g.bin = bin
	})
	return g.bin, g.err
}

// toolCache is the folder the test servers are kept in (.ci/run installs
// Azurite there too).
func toolCache() string {
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	return filepath.Join(cache, "lakesql-test")
}

// startServer runs bin with args(host, port) on a free port of 127.0.0.1
// until it accepts connections (three ports are tried: another process may
// take the one picked first), and stops it when the test ends. It returns
// host:port.
func startServer(t testing.TB, bin string, args func(host, port string) []string) string {
	t.Helper()
	for attempt := 0; ; attempt++ {
		addr := freeAddr(t)
		host, port, _ := net.SplitHostPort(addr)
		cmd := exec.Command(bin, args(host, port)...)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Start(); err != nil {
			t.Fatalf("start %s: %v", filepath.Base(bin), err)
		}
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		if waitListening(addr, done) {
			t.Cleanup(func() {
				cmd.Process.Kill()
				<-done
			})
			return addr
		}
		cmd.Process.Kill()
		<-done
		if attempt == 2 {
			t.Fatalf("%s did not start on %s: %s", filepath.Base(bin), addr, out.String())
		}
	}
}

func freeAddr(t testing.TB) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// waitListening waits up to 20 s for addr to accept connections; false if
// the process ended first.
func waitListening(addr string, done <-chan struct{}) bool {
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case <-done:
			return false
		default:
		}
		if c, err := net.DialTimeout("tcp", addr, 100*time.Millisecond); err == nil {
			c.Close()
			return true
		}
		time.Sleep(50 * time.Millisecond)
	}
	return false
}
