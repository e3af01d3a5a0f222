package testutil

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// versityModule is the S3-compatible server the storage tests run: Versity
// S3 Gateway (Apache-2.0) on its posix backend, a real S3 protocol stack
// over a temporary folder.
const versityModule = "github.com/versity/versitygw@v1.8.0"

var versity struct {
	once sync.Once
	bin  string
	err  error
}

// versityBinary builds versitygw from the module proxy once per machine
// (kept in the user cache folder, keyed by version).
func versityBinary() (string, error) {
	versity.once.Do(func() {
		cache, err := os.UserCacheDir()
		if err != nil {
			cache = os.TempDir()
		}
		bin := filepath.Join(cache, "lakesql-test", "versitygw-v1.8.0")
		if _, err := os.Stat(bin); err == nil {
			versity.bin = bin
			return
		}
		out, err := exec.Command("go", "mod", "download", "-json", versityModule).Output()
		if err != nil {
			versity.err = fmt.Errorf("go mod download %s: %v", versityModule, err)
			return
		}
		var mod struct{ Dir string }
		if err := json.Unmarshal(out, &mod); err != nil || mod.Dir == "" {
			versity.err = fmt.Errorf("go mod download %s: no module folder", versityModule)
			return
		}
		tmp := fmt.Sprintf("%s.%d.tmp", bin, os.Getpid())
		build := exec.Command("go", "build", "-o", tmp, "./cmd/versitygw")
		build.Dir = mod.Dir
		build.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
		var stderr bytes.Buffer
		build.Stderr = &stderr
		if err := build.Run(); err != nil {
			versity.err = fmt.Errorf("build versitygw: %v: %s", err, bytes.TrimSpace(stderr.Bytes()))
			return
		}
		if err := os.Rename(tmp, bin); err != nil {
			versity.err = err
			return
		}
		versity.bin = bin
	})
	return versity.bin, versity.err
}

// S3 is a running S3-compatible server with one bucket.
type S3 struct {
	Endpoint string // http://127.0.0.1:PORT
	Bucket   string
	Dir      string // the posix backend's folder: Dir/Bucket/key
}

// StartS3 starts versitygw on 127.0.0.1 (an ephemeral port) over a
// temporary folder, with bucket "lakesql", and points the AWS environment
// of this test at it (AWS_ENDPOINT_URL, keys, region). It is stopped when
// the test ends. The test is skipped, with the reason, only when the
// server cannot be built.
func StartS3(t testing.TB) *S3 {
	t.Helper()
	bin, err := versityBinary()
	if err != nil {
		t.Skipf("no S3 server for this test: %v", err)
	}
	dir := t.TempDir()
	s := &S3{Bucket: "lakesql", Dir: dir}
	if err := os.Mkdir(filepath.Join(dir, s.Bucket), 0o755); err != nil {
		t.Fatal(err)
	}
	const access, secret = "lakesql-test", "lakesql-test-secret"
	for attempt := 0; ; attempt++ {
		addr := freeAddr(t)
		cmd := exec.Command(bin, "--access", access, "--secret", secret, "--port", addr, "posix", dir)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Start(); err != nil {
			t.Fatalf("start versitygw: %v", err)
		}
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		if waitListening(addr, done) {
			t.Cleanup(func() {
				cmd.Process.Kill()
				<-done
			})
			s.Endpoint = "http://" + addr
			break
		}
		cmd.Process.Kill()
		<-done
		if attempt == 2 {
			t.Fatalf("versitygw did not start on %s: %s", addr, out.String())
		}
	}
	t.Setenv("AWS_ENDPOINT_URL", s.Endpoint)
	t.Setenv("AWS_ACCESS_KEY_ID", access)
	t.Setenv("AWS_SECRET_ACCESS_KEY", secret)
	t.Setenv("AWS_REGION", "us-east-1")
	t.Setenv("AWS_ENDPOINT_URL_S3", "")
	t.Setenv("AWS_S3_ENDPOINT", "")
	t.Setenv("AWS_PROFILE", "")
	t.Setenv("AWS_CONFIG_FILE", filepath.Join(dir, "no-aws-config"))
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", filepath.Join(dir, "no-aws-credentials"))
	return s
}

// Location is the s3:// location of a key prefix in the bucket.
func (s *S3) Location(prefix string) string { return "s3://" + s.Bucket + "/" + prefix }

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
