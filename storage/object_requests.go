package storage

import (
	"net/http"
	"strings"
	"sync/atomic"
)

// ObjectRequests counts the requests lakesql sends to object stores, by
// kind, and the body bytes GETs returned: how a test (or a user comparing
// plans) sees what a query cost on object storage.
type ObjectRequests struct {
	Gets, GetBytes, Puts, Heads, Lists, Deletes, Other int64
	// DataGets and DataGetBytes are the GETs of Parquet data files, a
	// part of Gets and GetBytes.
	DataGets, DataGetBytes int64
}

var objectRequests struct {
	gets, getBytes, puts, heads, lists, deletes, other, dataGets, dataGetBytes atomic.Int64
}

// ObjectRequestCounts returns the requests sent so far by this process.
func ObjectRequestCounts() ObjectRequests {
	r := &objectRequests
	return ObjectRequests{
		Gets: r.gets.Load(), GetBytes: r.getBytes.Load(), Puts: r.puts.Load(),
		Heads: r.heads.Load(), Lists: r.lists.Load(), Deletes: r.deletes.Load(), Other: r.other.Load(),
		DataGets: r.dataGets.Load(), DataGetBytes: r.dataGetBytes.Load(),
	}
}

// Sub is the requests of r made since before.
func (r ObjectRequests) Sub(before ObjectRequests) ObjectRequests {
	return ObjectRequests{
		Gets: r.Gets - before.Gets, GetBytes: r.GetBytes - before.GetBytes, Puts: r.Puts - before.Puts,
		Heads: r.Heads - before.Heads, Lists: r.Lists - before.Lists, Deletes: r.Deletes - before.Deletes,
		Other: r.Other - before.Other, DataGets: r.DataGets - before.DataGets, DataGetBytes: r.DataGetBytes - before.DataGetBytes,
	}
}

// countingTransport counts the requests it sends in objectRequests.
type countingTransport struct{ base http.RoundTripper }

func (t countingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	r := &objectRequests
	q := req.URL.Query()
	switch {
	case req.Method == http.MethodGet && (q.Has("list-type") || q.Has("delimiter") || q.Has("prefix")):
		r.lists.Add(1)
	case req.Method == http.MethodGet:
		r.gets.Add(1)
		if strings.HasSuffix(req.URL.Path, ".parquet") {
			r.dataGets.Add(1)
		}
	case req.Method == http.MethodPut:
		r.puts.Add(1)
	case req.Method == http.MethodHead:
		r.heads.Add(1)
	case req.Method == http.MethodDelete || (req.Method == http.MethodPost && q.Has("delete")):
		r.deletes.Add(1)
	default:
		r.other.Add(1)
	}
	resp, err := t.base.RoundTrip(req)
	if err == nil && req.Method == http.MethodGet && resp.ContentLength > 0 {
		r.getBytes.Add(resp.ContentLength)
		if strings.HasSuffix(req.URL.Path, ".parquet") {
			r.dataGetBytes.Add(resp.ContentLength)
		}
	}
	return resp, err
}
