// Package atinit sets lakesql's GOGC when it is initialised; the lakesql
// command imports it for that alone. It depends on nothing outside the
// standard library's os and runtime/debug, so Go initialises it before the
// big dependencies (a package is initialised as soon as its imports are, in
// import path order), and their initialisers — 3.4 MB of allocation — no
// longer start a garbage collection at the default 4 MB heap goal before
// main runs. A library importing lakesql is not affected: it calls
// lakesql.TuneGC or not.
package atinit

import "github.com/lakesql/lakesql/internal/gcpercent"

func init() { gcpercent.Set() }
