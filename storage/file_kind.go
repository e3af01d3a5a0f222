package storage

import "io/fs"

// FileKind names what a file that is not a regular file is, for the
// messages that refuse to read one: reading a device such as /dev/zero or
// a pipe never ends.
func FileKind(mode fs.FileMode) string {
	switch {
	case mode.IsDir():
		return "folder"
	case mode&fs.ModeCharDevice != 0, mode&fs.ModeDevice != 0:
		return "device"
	case mode&fs.ModeNamedPipe != 0:
		return "named pipe"
	case mode&fs.ModeSocket != 0:
		return "socket"
	}
	return "special file"
}
