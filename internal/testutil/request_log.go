package testutil

import (
	"cmp"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"sync"
	"testing"
)

// ServerRequest is one request a test server answered, as its counting
// proxy saw it.
type ServerRequest struct {
	Method, Path, Range string // Range: the request's Range (or Azure's x-ms-range) header, "" for none
	Status              int
	Bytes               int64 // the response body's length (-1 when unknown)
}

// RequestLog records the requests that pass through a proxy in front of a
// test server: how a test counts the GETs a query cost on a store whose
// client lakesql does not instrument.
type RequestLog struct {
	mu   sync.Mutex
	reqs []ServerRequest
}

// Since returns the requests after the first n (n from Len).
func (l *RequestLog) Since(n int) []ServerRequest {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]ServerRequest(nil), l.reqs[n:]...)
}

// Len is the number of requests so far.
func (l *RequestLog) Len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.reqs)
}

// countingProxy starts a reverse proxy to target that logs into log; it is
// closed when the test ends. It returns the proxy's URL.
func countingProxy(t testing.TB, target string, log *RequestLog) string {
	u, err := url.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	proxy := httputil.NewSingleHostReverseProxy(u)
	proxy.ModifyResponse = func(resp *http.Response) error {
		log.mu.Lock()
		log.reqs = append(log.reqs, ServerRequest{
			Method: resp.Request.Method, Path: resp.Request.URL.Path, Range: cmp.Or(resp.Request.Header.Get("Range"), resp.Request.Header.Get("x-ms-range")),
			Status: resp.StatusCode, Bytes: resp.ContentLength,
		})
		log.mu.Unlock()
		return nil
	}
	srv := httptest.NewServer(proxy)
	t.Cleanup(srv.Close)
	return srv.URL
}
