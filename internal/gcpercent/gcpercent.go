// Package gcpercent holds lakesql's GOGC (see lakesql.TuneGC for why 200).
// Its subpackage initoff turns the collector off during the lakesql
// command's initialisation; Set turns it back on.
package gcpercent

import (
	"os"
	"runtime/debug"
	"strconv"
)

// Percent is lakesql's GOGC.
const Percent = 200

// Set sets GOGC to Percent, or to the environment's GOGC when it has one.
func Set() {
	debug.SetGCPercent(fromEnvironment())
}

// fromEnvironment is Percent, or GOGC read as the runtime reads it: "off"
// is -1, a number is itself, anything else is the runtime's default 100.
func fromEnvironment() int {
	value, ok := os.LookupEnv("GOGC")
	switch {
	case !ok || value == "":
		return Percent
	case value == "off":
		return -1
	}
	if n, err := strconv.Atoi(value); err == nil {
		return n
	}
	return 100
}
