package testutil

import (
	"os"
	"path/filepath"
	"testing"
)

// versitygw is the S3-compatible server the storage tests run: Versity S3
// Gateway (Apache-2.0) on its posix backend, a real S3 protocol stack over
// a temporary folder.
var versitygw = &goTool{module: "github.com/versity/versitygw", version: "v1.8.0", pkg: "./cmd/versitygw"}

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
	bin, err := versitygw.binary()
	if err != nil {
		t.Skipf("no S3 server for this test: %v", err)
	}
	dir := t.TempDir()
	s := &S3{Bucket: "lakesql", Dir: dir}
	if err := os.Mkdir(filepath.Join(dir, s.Bucket), 0o755); err != nil {
		t.Fatal(err)
	}
	const access, secret = "lakesql-test", "lakesql-test-secret"
	s.Endpoint = "http://" + startServer(t, bin, func(host, port string) []string {
		return []string{"--access", access, "--secret", secret, "--port", host + ":" + port, "posix", dir}
	})
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
