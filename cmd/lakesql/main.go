// Command lakesql is the command-line front end of the lakesql engine: an
// interactive shell, a statement runner (-e, -f, standard input) and the demo
// warehouse builder.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/chzyer/readline"

	"github.com/lakesql/lakesql"
	// Its init turns the garbage collector off until main turns it on: no
	// collection runs during the dependencies' initialisation.
	_ "github.com/lakesql/lakesql/internal/gcpercent/initoff"
	// Its init backs the heap with transparent huge pages where the kernel
	// gives them on request: a third fewer page faults per process.
	_ "github.com/lakesql/lakesql/internal/hugeheap"
)

// Exit codes.
const (
	exitOK    = 0
	exitError = 1 // a statement or I/O failed
	exitUsage = 2 // the command line was wrong
)

const usageText = `Usage:
  lakesql [flags]                  open the interactive shell
  lakesql [flags] -e SQL           run SQL statements and exit
  lakesql [flags] -f FILE          run a SQL script and exit
  ... | lakesql [flags]            run the SQL read from standard input
  lakesql demo [demo flags]        build the demo warehouse
  lakesql serve --mysql ADDR [serve flags]
                                   serve the warehouse to MySQL clients
  lakesql serve --rest ADDR        serve the catalog over the Iceberg REST API

Flags:
  --warehouse DIR     warehouse folder (default $LAKESQL_WAREHOUSE, else ./warehouse),
                      or s3://bucket/prefix (AWS_* environment; AWS_ENDPOINT_URL
                      for S3-compatible stores)
  --catalog NAME      catalog name for three-part names (default lakesql); a
                      catalog of that name in ~/.iceberg-go.yaml is used if declared
  --catalog-uri URI   keep tables in an Iceberg catalog instead of the folder's:
                      sqlite:PATH, postgres://..., http(s)://... (REST)
                      (default $LAKESQL_CATALOG_URI)
  --catalog-property KEY=VALUE
                      a catalog property (credential, token, scope, s3.*);
                      may be repeated
  --format MODE       output mode: table, line, list, csv, tsv, json, jsonl,
                      markdown, html, insert (default table; .mode changes it)
  -e SQL              run SQL (';'-separated statements); may be repeated
  -f FILE             run the SQL script in FILE; may be repeated
  --timeout DURATION  stop any statement that runs longer (e.g. 30s; SET
                      statement_timeout changes it; default no limit)
  --read-only         refuse statements that write tables or files
  --version           print the version and exit
  --help              print this help and exit

Demo flags:
  --warehouse DIR     warehouse folder to build (default as above)
  --days N            number of days of events (default 7)
  --events-per-day N  events generated per day (default 10000)
  --start DATE        first day, YYYY-MM-DD (default 2026-01-01)

Serve flags (--mysql, --rest or both):
  --mysql ADDR        listen for MySQL clients on ADDR (host:port; use
                      127.0.0.1 to accept local clients only)
  --rest ADDR         serve the catalog over the Iceberg REST API at
                      http://ADDR/v1 (a missing host is 127.0.0.1)
  --token TOKEN       REST requests must carry "Authorization: Bearer TOKEN"
                      (default $LAKESQL_REST_TOKEN)
  --warehouse DIR     warehouse folder (default as above)
  --catalog NAME      catalog name for three-part names (default lakesql)
  --catalog-uri URI, --catalog-property KEY=VALUE
                      the catalog, as above
  --timeout DURATION  statement timeout of every connection (default none)
  --read-only         connections may not write tables or files
  --user NAME         the one user clients log in as (default root)
  --password PW       that user's password (default none)
  --users FILE        users and passwords, one name:password per line
  --tls-cert FILE     PEM certificate offered to clients that ask for TLS
  --tls-key FILE      its PEM private key
  --auth METHOD       password method proposed first: mysql_native_password
                      (default) or caching_sha2_password (over TLS)
Each MySQL connection gets its own session in the MySQL dialect (SET sql_dialect).

Statements and dot commands (.help lists them) run in order and stop at the
first error, which is printed as "Error: <message>" on standard error with a
non-zero exit status; from files and standard input the offending line follows
with a caret under the error. A warehouse folder that does not exist is an
error unless a CREATE statement creates it; queries, COPY, DESCRIBE and
SUMMARIZE of files run without one.
`

func main() {
	lakesql.TuneGC()
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// cliConfig is the parsed command line.
type cliConfig struct {
	warehouse string
	catalog   string
	format    outputFormat
	sources   []sqlSource // -e and -f in command-line order
	version   bool
	timeout   time.Duration // --timeout: the session's statement_timeout
	readOnly  bool          // --read-only
	catalogFlags
}

// sqlSource is one -e text or -f file.
type sqlSource struct {
	text string // for -e
	file string // for -f
}

// sourceFlag collects repeated -e or -f flags into one ordered list, so
// "-f setup.sql -e 'SELECT …'" runs the file first.
type sourceFlag struct {
	list   *[]sqlSource
	isFile bool
}

func (s sourceFlag) String() string { return "" }

func (s sourceFlag) Set(v string) error {
	if s.isFile {
		*s.list = append(*s.list, sqlSource{file: v})
	} else {
		*s.list = append(*s.list, sqlSource{text: v})
	}
	return nil
}

// run is the whole program with its environment passed in, so tests can run
// it in-process. It returns the exit status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "demo" {
		return runDemo(args[1:], defaultWarehouse(), stdout, stderr)
	}
	if len(args) > 0 && args[0] == "serve" {
		return runServe(args[1:], defaultWarehouse(), stdout, stderr)
	}
	cfg, rest, err := parseFlags(args)
	switch {
	case errors.Is(err, flag.ErrHelp):
		fmt.Fprint(stdout, usageText)
		return exitOK
	case err != nil:
		return usageError(stderr, err)
	case cfg.version:
		fmt.Fprintln(stdout, versionText())
		return exitOK
	}
	if len(rest) > 0 {
		if rest[0] == "demo" {
			return runDemo(rest[1:], cfg.warehouse, stdout, stderr)
		}
		return usageError(stderr, fmt.Errorf("unexpected argument %q", rest[0]))
	}
	return runSQL(cfg, stdin, stdout, stderr)
}

// parseFlags parses the global flags and returns the remaining arguments.
func parseFlags(args []string) (cliConfig, []string, error) {
	cfg := cliConfig{}
	fs := flag.NewFlagSet("lakesql", flag.ContinueOnError)
	fs.SetOutput(io.Discard) // errors are reported by run, help by usageText
	fs.StringVar(&cfg.warehouse, "warehouse", defaultWarehouse(), "")
	fs.StringVar(&cfg.catalog, "catalog", "lakesql", "")
	format := fs.String("format", string(formatTable), "")
	fs.Var(sourceFlag{list: &cfg.sources}, "e", "")
	fs.Var(sourceFlag{list: &cfg.sources, isFile: true}, "f", "")
	fs.BoolVar(&cfg.version, "version", false, "")
	fs.DurationVar(&cfg.timeout, "timeout", 0, "")
	fs.BoolVar(&cfg.readOnly, "read-only", false, "")
	addCatalogFlags(fs, &cfg.catalogFlags)
	if err := fs.Parse(args); err != nil {
		return cfg, nil, err
	}
	f, err := parseFormat(*format)
	if err != nil {
		return cfg, nil, fmt.Errorf("--format: %w", err)
	}
	cfg.format = f
	return cfg, fs.Args(), nil
}

func defaultWarehouse() string {
	if dir := os.Getenv("LAKESQL_WAREHOUSE"); dir != "" {
		return dir
	}
	return "./warehouse"
}

func usageError(stderr io.Writer, err error) int {
	fmt.Fprintf(stderr, "Error: %s\nRun 'lakesql --help' for usage.\n", err)
	return exitUsage
}

// runSQL opens the session and runs the -e/-f sources, standard input, or
// the interactive shell.
func runSQL(cfg cliConfig, stdin io.Reader, stdout, stderr io.Writer) int {
	ctx := context.Background()
	opts := lakesql.Options{Warehouse: cfg.warehouse, Catalog: cfg.catalog, StatementTimeout: cfg.timeout,
		CatalogURI: cfg.catalogFlags.uri, CatalogProps: cfg.catalogFlags.props, ReadOnly: cfg.readOnly, Notices: stderr}
	if f, ok := stderr.(*os.File); ok && readline.IsTerminal(int(f.Fd())) {
		opts.Progress = stderr // progress lines of long statements
	}
	sess := &lazySession{opts: opts, notify: stderr}
	defer sess.Close()

	sh := newShell(sess, cfg.format, stdout, terminalWidth(stdout))
	defer sh.close()

	if tty, ok := terminal(stdin); ok && len(cfg.sources) == 0 {
		return runREPL(sh, tty, stdout, stderr)
	}
	// Ctrl-C cancels the running statement, which then fails like any other
	// error, instead of killing the process mid-write.
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt)
	defer stop()
	err := runSources(ctx, sh, cfg.sources, stdin)
	if cerr := sh.close(); err == nil {
		err = cerr
	}
	if err != nil {
		reportError(stderr, err)
		return exitError
	}
	return exitOK
}

// runSources runs the -e/-f sources in order, or standard input if there are
// none, stopping at the first error or quit.
func runSources(ctx context.Context, sh *shell, sources []sqlSource, stdin io.Reader) error {
	if len(sources) == 0 {
		_, err := sh.runScript(ctx, stdin, "", caretScript)
		return err
	}
	for _, src := range sources {
		var quit bool
		var err error
		if src.file == "" {
			quit, err = sh.runScript(ctx, strings.NewReader(src.text), "-e", oneLine)
		} else {
			quit, err = sh.readFile(ctx, src.file)
		}
		if err != nil || quit {
			return err
		}
	}
	return nil
}

// terminal returns r as a file if it is an interactive terminal.
func terminal(r io.Reader) (*os.File, bool) {
	f, ok := r.(*os.File)
	return f, ok && readline.IsTerminal(int(f.Fd()))
}

// terminalWidth reports whether w is a terminal and, if so, its width.
func terminalWidth(w io.Writer) func() (int, bool) {
	f, ok := w.(*os.File)
	if !ok || !readline.IsTerminal(int(f.Fd())) {
		return nil
	}
	return func() (int, bool) {
		width, _, err := readline.GetSize(int(f.Fd()))
		if err != nil || width <= 0 {
			width = 80
		}
		return width, true
	}
}
