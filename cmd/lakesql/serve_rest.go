package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/lakesql/lakesql/catalog"
	"github.com/lakesql/lakesql/catalog/restserver"
)

const serveUsage = `Usage:
  lakesql serve --rest ADDR [--token TOKEN] [--warehouse DIR] [--catalog NAME]
                [--catalog-uri URI] [--catalog-property KEY=VALUE]...

Serves the warehouse's catalog over the Iceberg REST catalog API at
http://ADDR/v1, for Spark, Trino, PyIceberg, DuckDB and iceberg-go.
ADDR is host:port; a missing host is 127.0.0.1 (say 0.0.0.0:PORT to listen
on every interface). --token (default $LAKESQL_REST_TOKEN) makes every
request carry "Authorization: Bearer TOKEN".
`

// runServe runs "lakesql serve": the REST catalog server, until SIGINT or
// SIGTERM.
func runServe(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	rest := fs.String("rest", "", "")
	token := fs.String("token", os.Getenv("LAKESQL_REST_TOKEN"), "")
	warehouse := fs.String("warehouse", defaultWarehouse(), "")
	name := fs.String("catalog", "lakesql", "")
	var cat catalogFlags
	addCatalogFlags(fs, &cat)
	err := fs.Parse(args)
	switch {
	case errors.Is(err, flag.ErrHelp):
		fmt.Fprint(stdout, serveUsage)
		return exitOK
	case err != nil:
		return usageError(stderr, err)
	case fs.NArg() > 0:
		return usageError(stderr, fmt.Errorf("serve: unexpected argument %q", fs.Arg(0)))
	case *rest == "":
		return usageError(stderr, errors.New("serve: --rest ADDR is required (e.g. --rest 127.0.0.1:8181)"))
	}
	addr, err := loopbackByDefault(*rest)
	if err != nil {
		return usageError(stderr, err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	wh, err := catalog.OpenConfig(ctx, catalog.Config{Name: *name, Warehouse: *warehouse, URI: cat.uri, Props: cat.props})
	if err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return exitError
	}
	defer wh.Close()
	l, err := net.Listen("tcp", addr)
	if err != nil {
		fmt.Fprintf(stderr, "Error: serve --rest %s: %v\n", addr, err)
		return exitError
	}
	auth := "no token"
	if *token != "" {
		auth = "bearer token required"
	}
	fmt.Fprintf(stdout, "Serving the Iceberg REST catalog of %s at http://%s/v1 (%s); Ctrl-C stops\n", wh.Dir(), l.Addr(), auth)
	srv := &http.Server{Handler: restserver.New(wh, *token).Handler(), ReadHeaderTimeout: 10 * time.Second}
	go func() {
		<-ctx.Done()
		shutdown, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		srv.Shutdown(shutdown)
	}()
	if err := srv.Serve(l); !errors.Is(err, http.ErrServerClosed) {
		fmt.Fprintf(stderr, "Error: serve --rest %s: %v\n", addr, err)
		return exitError
	}
	return exitOK
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
