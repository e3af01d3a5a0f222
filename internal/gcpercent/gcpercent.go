// Package gcpercent holds lakesql's GOGC (see lakesql.TuneGC for why 200).
// Its subpackage atinit sets it from a package initialiser, for the lakesql
// command.
package gcpercent

import (
	"os"
	"runtime/debug"
)

// Percent is lakesql's GOGC.
const Percent = 200

// Set sets GOGC to Percent unless the environment sets GOGC.
func Set() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(Percent)
	}
}
