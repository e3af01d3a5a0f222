package value

import (
	"testing"
	"time"
)

// MySQL's offsets: a sign, hours, a colon and minutes below 60, from
// -13:59 to +14:00.
func TestMySQLZoneOffsets(t *testing.T) {
	for name, want := range map[string]int{
		"+00:00": 0, "-00:00": 0, "+5:3": 5*3600 + 180, "+05:30": 5*3600 + 1800,
		"+14:00": 14 * 3600, "-13:59": -(13*3600 + 59*60),
	} {
		loc, ok := MySQLZone(name)
		if !ok {
			t.Errorf("MySQLZone(%q) unknown", name)
			continue
		}
		if _, off := time.Unix(0, 0).In(loc).Zone(); off != want {
			t.Errorf("MySQLZone(%q) is %d seconds east, want %d", name, off, want)
		}
	}
	for _, name := range []string{"+14:01", "-14:00", "+05:60", "05:00", "+05", "+05:", "", "Local", "Mars/Olympus", "+05:30 "} {
		if _, ok := MySQLZone(name); ok {
			t.Errorf("MySQLZone(%q) is a zone; MySQL refuses it", name)
		}
	}
	if loc, ok := MySQLZone("system"); !ok || !IsUTC(loc) {
		t.Errorf("MySQLZone(system) = %v, %v; want UTC", loc, ok)
	}
}
