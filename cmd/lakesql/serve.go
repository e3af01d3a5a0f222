package main

import (
	"crypto/tls"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/lakesql/lakesql"
	"github.com/lakesql/lakesql/internal/mysqlserver"
)

// serveConfig is the command line of "lakesql serve".
type serveConfig struct {
	server    mysqlserver.Config
	usersFile string
	user      string
	password  string
	tlsCert   string
	tlsKey    string
}

func parseServeFlags(args []string, warehouse string) (serveConfig, error) {
	var cfg serveConfig
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&cfg.server.Addr, "mysql", "", "")
	fs.StringVar(&cfg.server.Session.Warehouse, "warehouse", warehouse, "")
	fs.StringVar(&cfg.server.Session.Catalog, "catalog", "lakesql", "")
	fs.DurationVar(&cfg.server.Session.StatementTimeout, "timeout", 0, "")
	fs.StringVar(&cfg.user, "user", "", "")
	fs.StringVar(&cfg.password, "password", "", "")
	fs.StringVar(&cfg.usersFile, "users", "", "")
	fs.StringVar(&cfg.tlsCert, "tls-cert", "", "")
	fs.StringVar(&cfg.tlsKey, "tls-key", "", "")
	fs.StringVar(&cfg.server.DefaultAuth, "auth", "mysql_native_password", "")
	if err := fs.Parse(args); err != nil {
		return cfg, err
	}
	switch {
	case fs.NArg() > 0:
		return cfg, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	case cfg.server.Addr == "":
		return cfg, errors.New("--mysql ADDRESS is required (e.g. --mysql 127.0.0.1:3306)")
	case cfg.usersFile != "" && cfg.user != "":
		return cfg, errors.New("--users and --user are exclusive")
	case cfg.password != "" && cfg.user == "":
		return cfg, errors.New("--password needs --user")
	case (cfg.tlsCert == "") != (cfg.tlsKey == ""):
		return cfg, errors.New("--tls-cert and --tls-key go together")
	}
	return cfg, nil
}

// runServe implements "lakesql serve --mysql ADDR": it serves until
// interrupted (Ctrl-C, SIGTERM).
func runServe(args []string, warehouse string, stdout, stderr io.Writer) int {
	cfg, err := parseServeFlags(args, warehouse)
	switch {
	case errors.Is(err, flag.ErrHelp):
		fmt.Fprint(stdout, usageText)
		return exitOK
	case err != nil:
		return usageError(stderr, fmt.Errorf("serve: %w", err))
	}
	switch {
	case cfg.usersFile != "":
		if cfg.server.Users, err = mysqlserver.ReadUsers(cfg.usersFile); err != nil {
			printError(stderr, fmt.Errorf("serve: %w", err))
			return exitError
		}
	case cfg.user != "":
		cfg.server.Users = map[string]string{cfg.user: cfg.password}
	}
	if cfg.tlsCert != "" {
		cert, err := tls.LoadX509KeyPair(cfg.tlsCert, cfg.tlsKey)
		if err != nil {
			printError(stderr, fmt.Errorf("serve: TLS certificate %s: %w", cfg.tlsCert, err))
			return exitError
		}
		cfg.server.TLS = &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}
	}
	if _, err := os.Stat(cfg.server.Session.Warehouse); err != nil {
		printError(stderr, fmt.Errorf("serve: warehouse %s: %w", cfg.server.Session.Warehouse, errors.Unwrap(err)))
		return exitError
	}
	srv, err := mysqlserver.Start(cfg.server)
	if err != nil {
		printError(stderr, err)
		return exitError
	}
	fmt.Fprintf(stdout, "%s: serving the MySQL protocol on %s (warehouse %s, SQL dialect %s)\n",
		versionText(), srv.Addr(), cfg.server.Session.Warehouse, lakesql.DialectMySQL)
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sig)
	<-sig
	srv.Close()
	return exitOK
}
