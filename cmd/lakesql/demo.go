package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"time"

	"github.com/lakesql/lakesql/internal/demo"
)

// buildDemo generates the demo warehouse; tests replace it with a fake.
var buildDemo = demo.Build

const demoDateLayout = "2006-01-02"

// runDemo implements "lakesql demo [flags]".
func runDemo(args []string, warehouse string, stdout, stderr io.Writer) int {
	opts, err := parseDemoFlags(args, warehouse)
	if code, done := flagOutcome("demo", err, stdout, stderr); done {
		return code
	}
	opts.Progress = stderr
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := buildDemo(ctx, opts); err != nil {
		printError(stderr, fmt.Errorf("demo: %w", err))
		return exitError
	}
	fmt.Fprintf(stdout, "Demo warehouse ready in %s: %d events over %d days from %s.\n",
		opts.Warehouse, opts.Days*opts.EventsPerDay, opts.Days, opts.Start.Format(demoDateLayout))
	return exitOK
}

// parseDemoFlags parses the demo subcommand's flags; warehouse is the
// default for --warehouse.
func parseDemoFlags(args []string, warehouse string) (demo.Options, error) {
	opts := demo.Options{}
	fs := flag.NewFlagSet("lakesql demo", flag.ContinueOnError)
	fs.SetOutput(io.Discard) // errors are reported by runDemo, help by usageText
	fs.StringVar(&opts.Warehouse, "warehouse", warehouse, "")
	fs.IntVar(&opts.Days, "days", 7, "")
	fs.IntVar(&opts.EventsPerDay, "events-per-day", 10000, "")
	start := fs.String("start", "2026-01-01", "")
	if err := fs.Parse(args); err != nil {
		return opts, err
	}
	if fs.NArg() > 0 {
		return opts, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if opts.Days <= 0 {
		return opts, fmt.Errorf("--days must be positive, got %d", opts.Days)
	}
	if opts.EventsPerDay <= 0 {
		return opts, fmt.Errorf("--events-per-day must be positive, got %d", opts.EventsPerDay)
	}
	t, err := time.Parse(demoDateLayout, *start)
	if err != nil {
		return opts, fmt.Errorf("--start must be a date like 2026-01-01, got %q", *start)
	}
	opts.Start = t
	return opts, nil
}

// flagOutcome ends a subcommand whose flags did not parse: --help prints
// the usage, any other error is a usage error named after the subcommand.
// done is false when the flags parsed and the subcommand goes on.
func flagOutcome(name string, err error, stdout, stderr io.Writer) (code int, done bool) {
	switch {
	case errors.Is(err, flag.ErrHelp):
		fmt.Fprint(stdout, usageText)
		return exitOK, true
	case err != nil:
		return usageError(stderr, fmt.Errorf("%s: %w", name, err)), true
	}
	return 0, false
}
