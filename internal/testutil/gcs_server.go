package testutil

import (
	"bytes"
	"net/http"
	"testing"
)

// fakeGCSServer is the Google Cloud Storage emulator the gs:// tests run:
// fake-gcs-server (BSD-2-Clause), the JSON and XML APIs, on its memory
// backend: its filesystem backend accepts but drops objects whose names end
// in "/", the folder markers a filesystem-style warehouse's namespaces are
// (real GCS keeps them).
var fakeGCSServer = &goTool{module: "github.com/fsouza/fake-gcs-server", version: "v1.56.1", pkg: "."}

// GCS is a running GCS emulator with one bucket, behind a proxy that logs
// its requests.
type GCS struct {
	Endpoint string // the proxy's http://127.0.0.1:PORT
	Bucket   string
	Requests *RequestLog
}

// StartGCS starts fake-gcs-server on 127.0.0.1 with bucket "lakesql"; it is stopped when the test ends. The test is
// skipped, with the reason, only when the server cannot be built.
func StartGCS(t testing.TB) *GCS {
	t.Helper()
	bin, err := fakeGCSServer.binary()
	if err != nil {
		t.Skipf("no GCS emulator for this test: %v", err)
	}
	// -public-host: Google's client reads objects through the XML API
	// (GET /bucket/key on the endpoint's host), which the emulator serves
	// only for requests to its public host (storage.googleapis.com unless
	// told; a host without a port matches it on any port).
	addr := startServer(t, bin, func(host, port string) []string {
		return []string{"-scheme", "http", "-host", host, "-port", port, "-backend", "memory",
			"-public-host", host, "-log-level", "error"}
	})
	g := &GCS{Bucket: "lakesql", Requests: &RequestLog{}}
	g.Endpoint = countingProxy(t, "http://"+addr, g.Requests)
	resp, err := http.Post(g.Endpoint+"/storage/v1/b?project=lakesql-test", "application/json",
		bytes.NewReader([]byte(`{"name":"`+g.Bucket+`"}`)))
	if err != nil {
		t.Fatalf("create bucket %s: %v", g.Bucket, err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("create bucket %s: %s", g.Bucket, resp.Status)
	}
	return g
}

// Props are the Iceberg gcs.* properties that point iceberg-go's GCS I/O
// at the emulator, without credentials.
func (g *GCS) Props() map[string]string {
	return map[string]string{"gcs.service.host": g.Endpoint + "/storage/v1/", "gcs.no-auth": "true"}
}

// Location is the gs:// location of a key prefix in the bucket.
func (g *GCS) Location(prefix string) string { return "gs://" + g.Bucket + "/" + prefix }
