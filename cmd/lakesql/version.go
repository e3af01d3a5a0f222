package main

import (
	"runtime/debug"
	"strings"
)

// version overrides the module version at release time with
// -ldflags "-X main.version=…"; empty, the build information decides.
var version = ""

// versionText is "lakesql VERSION (revision REV[, modified], TIME)", from
// the module version and VCS stamp Go records in the binary. A build outside
// a module version (go build in a checkout) reports "(devel)".
func versionText() string {
	return formatVersion(version, readBuildInfo())
}

// readBuildInfo is debug.ReadBuildInfo; tests replace it.
var readBuildInfo = func() *debug.BuildInfo {
	if bi, ok := debug.ReadBuildInfo(); ok {
		return bi
	}
	return nil
}

func formatVersion(override string, bi *debug.BuildInfo) string {
	v := override
	var rev, when string
	modified := false
	if bi != nil {
		if v == "" {
			v = bi.Main.Version
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.time":
				when = s.Value
			case "vcs.modified":
				modified = s.Value == "true"
			}
		}
	}
	if v == "" {
		v = "(devel)"
	}
	var details []string
	if rev != "" {
		r := "revision " + rev[:min(12, len(rev))]
		if modified {
			r += ", modified"
		}
		details = append(details, r)
	}
	if when != "" {
		details = append(details, when)
	}
	if len(details) == 0 {
		return "lakesql " + v
	}
	return "lakesql " + v + " (" + strings.Join(details, ", ") + ")"
}
