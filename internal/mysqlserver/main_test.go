package mysqlserver

import (
	"os"
	"testing"

	vtlog "github.com/dolthub/vitess/go/vt/log"
)

// TestMain silences the protocol layer's log, which reports every
// connection the tests close as an error reading a packet.
func TestMain(m *testing.M) {
	quiet := func(string, ...any) {}
	vtlog.Errorf, vtlog.Warningf, vtlog.Infof = quiet, quiet, quiet
	os.Exit(m.Run())
}
