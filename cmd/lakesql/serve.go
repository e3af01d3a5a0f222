package main

import (
	"context"
	"crypto/tls"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/lakesql/lakesql"
	"github.com/lakesql/lakesql/internal/mysqlserver"
)

// serveConfig is the command line of "lakesql serve": the MySQL server,
// the Iceberg REST catalog server, or both.
type serveConfig struct {
	server    mysqlserver.Config // its Session options serve both
	usersFile string
	user      string
	password  string
	tlsCert   string
	tlsKey    string
	rest      string // --rest ADDR
	token     string // --token, for the REST server
}

func parseServeFlags(args []string, warehouse string) (serveConfig, error) {
	var cfg serveConfig
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&cfg.server.Addr, "mysql", "", "")
	fs.StringVar(&cfg.server.Session.Warehouse, "warehouse", warehouse, "")
	fs.StringVar(&cfg.server.Session.Catalog, "catalog", "lakesql", "")
	fs.DurationVar(&cfg.server.Session.StatementTimeout, "timeout", 0, "")
	fs.BoolVar(&cfg.server.Session.ReadOnly, "read-only", false, "")
	fs.StringVar(&cfg.user, "user", "", "")
	fs.StringVar(&cfg.password, "password", "", "")
	fs.StringVar(&cfg.usersFile, "users", "", "")
	fs.StringVar(&cfg.tlsCert, "tls-cert", "", "")
	fs.StringVar(&cfg.tlsKey, "tls-key", "", "")
	fs.StringVar(&cfg.server.DefaultAuth, "auth", "mysql_native_password", "")
	fs.StringVar(&cfg.rest, "rest", "", "")
	fs.StringVar(&cfg.token, "token", os.Getenv("LAKESQL_REST_TOKEN"), "")
	var cat catalogFlags
	addCatalogFlags(fs, &cat)
	if err := fs.Parse(args); err != nil {
		return cfg, err
	}
	cfg.server.Session.CatalogURI, cfg.server.Session.CatalogProps = cat.uri, cat.props
	switch {
	case fs.NArg() > 0:
		return cfg, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	case cfg.rest != "" && cfg.server.Session.ReadOnly:
		return cfg, errors.New("--read-only applies to MySQL connections only; the REST catalog server commits what its clients send (require --token instead)")
	case cfg.server.Addr == "" && cfg.rest == "":
		return cfg, errors.New("--mysql ADDRESS or --rest ADDRESS is required (e.g. --mysql 127.0.0.1:3306, --rest 127.0.0.1:8181)")
	case cfg.usersFile != "" && cfg.user != "":
		return cfg, errors.New("--users and --user are exclusive")
	case cfg.password != "" && cfg.user == "":
		return cfg, errors.New("--password needs --user")
	case (cfg.tlsCert == "") != (cfg.tlsKey == ""):
		return cfg, errors.New("--tls-cert and --tls-key go together")
	}
	return cfg, nil
}

// runServe implements "lakesql serve --mysql ADDR" and "lakesql serve
// --rest ADDR" (both at once if given): it serves until interrupted
// (Ctrl-C, SIGTERM).
func runServe(args []string, warehouse string, stdout, stderr io.Writer) int {
	cfg, err := parseServeFlags(args, warehouse)
	if code, done := flagOutcome("serve", err, stdout, stderr); done {
		return code
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if cfg.rest != "" {
		stopREST, err := startREST(ctx, cfg, stdout)
		if err != nil {
			printError(stderr, fmt.Errorf("serve: %w", err))
			return exitError
		}
		defer stopREST()
	}
	if cfg.server.Addr != "" {
		srv, err := startMySQL(cfg, stdout)
		if err != nil {
			printError(stderr, fmt.Errorf("serve: %w", err))
			return exitError
		}
		defer srv.Close()
	}
	<-ctx.Done()
	return exitOK
}

// startMySQL starts the MySQL protocol server of cfg.
func startMySQL(cfg serveConfig, stdout io.Writer) (*mysqlserver.Server, error) {
	var err error
	switch {
	case cfg.usersFile != "":
		if cfg.server.Users, err = mysqlserver.ReadUsers(cfg.usersFile); err != nil {
			return nil, err
		}
	case cfg.user != "":
		cfg.server.Users = map[string]string{cfg.user: cfg.password}
	}
	if cfg.tlsCert != "" {
		cert, err := tls.LoadX509KeyPair(cfg.tlsCert, cfg.tlsKey)
		if err != nil {
			return nil, fmt.Errorf("TLS certificate %s: %w", cfg.tlsCert, err)
		}
		cfg.server.TLS = &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}
	}
	opts := cfg.server.Session
	if !strings.Contains(opts.Warehouse, "://") && opts.CatalogURI == "" {
		if _, err := os.Stat(opts.Warehouse); err != nil {
			return nil, fmt.Errorf("warehouse %s: %w", opts.Warehouse, errors.Unwrap(err))
		}
	}
	srv, err := mysqlserver.Start(cfg.server)
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(stdout, "%s: serving the MySQL protocol on %s (warehouse %s, SQL dialect %s)\n",
		versionText(), srv.Addr(), opts.Warehouse, lakesql.DialectMySQL)
	return srv, nil
}
