package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"

	"github.com/lakesql/lakesql/catalog"
	"github.com/lakesql/lakesql/catalog/restserver"
)

// startREST serves the warehouse's catalog over the Iceberg REST catalog
// API at http://ADDR/v1, for Spark, Trino, PyIceberg, DuckDB and
// iceberg-go, until ctx ends; stop waits for it to shut down. A missing
// host in ADDR is 127.0.0.1; a token makes every request carry
// "Authorization: Bearer TOKEN".
func startREST(ctx context.Context, cfg serveConfig, stdout io.Writer) (stop func(), err error) {
	addr, err := loopbackByDefault(cfg.rest)
	if err != nil {
		return nil, err
	}
	opts := cfg.server.Session
	wh, err := catalog.OpenConfig(ctx, catalog.Config{Name: opts.Catalog, Warehouse: opts.Warehouse, URI: opts.CatalogURI, Props: opts.CatalogProps})
	if err != nil {
		return nil, err
	}
	l, err := net.Listen("tcp", addr)
	if err != nil {
		wh.Close()
		return nil, fmt.Errorf("serve --rest %s: %w", addr, err)
	}
	auth := "no token"
	if cfg.token != "" {
		auth = "bearer token required"
	}
	fmt.Fprintf(stdout, "Serving the Iceberg REST catalog of %s at http://%s/v1 (%s)\n", wh.Dir(), l.Addr(), auth)
	srv := &http.Server{Handler: restserver.New(wh, cfg.token).Handler(), ReadHeaderTimeout: 10 * time.Second}
	done := make(chan struct{})
	go func() {
		defer close(done)
		srv.Serve(l)
	}()
	return func() {
		shutdown, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		srv.Shutdown(shutdown)
		<-done
		wh.Close()
	}, nil
}

// loopbackByDefault fills in 127.0.0.1 when addr names no host.
func loopbackByDefault(addr string) (string, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "", fmt.Errorf("serve --rest %q: want host:port, e.g. 127.0.0.1:8181", addr)
	}
	if host == "" {
		host = "127.0.0.1"
	}
	return net.JoinHostPort(host, port), nil
}
