package expr

import (
	"bytes"
	"net/url"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakesql/lakesql/planner"
)

// urlExtractKernel is url_extract(url, 'part'[, name]), Trino's
// url_extract_* functions: a part of url read as a URI (RFC 3986), NULL
// when url is no URI. Trino reads url with Java's java.net.URI: a part the
// URI lacks is an empty string (the port, a parameter not there NULL), the path,
// query and fragment come %-decoded, a parameter's value decoded as a form
// value (+ is a space); an opaque URI (mailto:x) has no path or query, an
// authority without a numeric port no host.
func urlExtractKernel(ev *evaluator, c *planner.Call, ops []operand) (arrow.Array, error) {
	urls, part := newBytesVec(ops[0]), ops[1].lit.Value.(string)
	var names *BytesVec
	if part == "parameter" {
		names = newBytesVec(ops[2])
	}
	return ev.nullableStringRows(ops, func(dst []byte, i int) ([]byte, bool) {
		u, ok := parseURI(urls.At(i))
		if !ok {
			return dst, false
		}
		var v []byte
		switch part {
		case "protocol":
			v = u.scheme
		case "host":
			v = u.host
		case "port":
			v = u.port
		case "path":
			v = percentDecoded(u.path, false)
		case "query":
			v = percentDecoded(u.query, false)
		case "fragment":
			v = percentDecoded(u.fragment, false)
		case "parameter":
			v = percentDecoded(queryParameter(u.query, names.At(i)), true)
		}
		// Trino's part of a URI that lacks it is empty; a port or a
		// parameter that is not there is NULL.
		return append(dst, v...), v != nil || part != "port" && part != "parameter"
	}), nil
}

// uriParts are the raw parts of a URI; nil where it has none (an empty,
// non-nil slice is a part that is present but empty, as the path of
// http://a.com).
type uriParts struct {
	scheme, host, port, path, query, fragment []byte
}

// parseURI splits s as RFC 3986's appendix B does, after the checks by
// which Java's URI refuses a string: characters a URI cannot hold, a %
// without two hex digits, a second #, a malformed scheme.
func parseURI(s []byte) (uriParts, bool) {
	var u uriParts
	if !uriChars(s) {
		return u, false
	}
	rest := s
	if j := bytes.IndexAny(rest, ":/?#"); j >= 0 && rest[j] == ':' {
		if !validScheme(rest[:j]) {
			return u, false
		}
		u.scheme, rest = rest[:j], rest[j+1:]
	}
	if j := bytes.IndexByte(rest, '#'); j >= 0 {
		u.fragment, rest = rest[j+1:], rest[:j]
	}
	if u.scheme != nil && !bytes.HasPrefix(rest, []byte("/")) {
		return u, len(rest) > 0 // opaque: scheme:part, which must not be empty
	}
	if j := bytes.IndexByte(rest, '?'); j >= 0 {
		u.query, rest = rest[j+1:], rest[:j]
	}
	if bytes.HasPrefix(rest, []byte("//")) {
		rest = rest[2:]
		end := bytes.IndexByte(rest, '/')
		if end < 0 {
			end = len(rest)
		}
		u.host, u.port = splitAuthority(rest[:end])
		rest = rest[end:]
	}
	u.path = append([]byte{}, rest...)
	return u, true
}

// splitAuthority gives the host and port of [userinfo@]host[:port]; none
// when the port is not a number that fits an int or the host is no
// hostname, IPv4 or [IPv6] address (a_b.com, 例え.jp), where Java's URI
// takes the authority as registry-based and names no host.
func splitAuthority(a []byte) (host, port []byte) {
	host, port = hostAndPort(a)
	if host != nil && !validHost(host) {
		return nil, nil
	}
	return host, port
}

func hostAndPort(a []byte) (host, port []byte) {
	if j := bytes.LastIndexByte(a, '@'); j >= 0 {
		a = a[j+1:]
	}
	hostEnd := bytes.LastIndexByte(a, ':')
	if hostEnd < bytes.LastIndexByte(a, ']') { // the colons of an IPv6 address
		hostEnd = -1
	}
	if hostEnd < 0 {
		return nonEmpty(a), nil
	}
	p := a[hostEnd+1:]
	if len(p) == 0 {
		return nonEmpty(a[:hostEnd]), nil
	}
	if _, err := strconv.ParseInt(string(p), 10, 32); err != nil || p[0] == '+' || p[0] == '-' {
		return nil, nil
	}
	return nonEmpty(a[:hostEnd]), p
}

// validHost reports whether h is a host Java's URI accepts: an [IPv6]
// address, or labels of ASCII letters, digits and inner hyphens joined by
// dots (a last dot allowed), the last label of several starting with a
// letter, or an IPv4 address.
func validHost(h []byte) bool {
	if h[0] == '[' {
		return h[len(h)-1] == ']'
	}
	labels := bytes.Split(bytes.TrimSuffix(h, []byte(".")), []byte("."))
	numeric := true
	for _, l := range labels {
		if len(l) == 0 || l[0] == '-' || l[len(l)-1] == '-' {
			return false
		}
		for _, c := range l {
			digit := c >= '0' && c <= '9'
			numeric = numeric && digit
			if !digit && c != '-' && !(c|0x20 >= 'a' && c|0x20 <= 'z') {
				return false
			}
		}
	}
	if numeric {
		return len(labels) == 1 || ipv4(labels)
	}
	last := labels[len(labels)-1][0]
	return len(labels) == 1 || last|0x20 >= 'a' && last|0x20 <= 'z'
}

// ipv4 reports whether labels of digits are the 4 numbers of an IPv4
// address.
func ipv4(labels [][]byte) bool {
	for _, l := range labels {
		if n, err := strconv.Atoi(string(l)); err != nil || n > 255 {
			return false
		}
	}
	return len(labels) == 4
}

func nonEmpty(b []byte) []byte {
	if len(b) == 0 {
		return nil
	}
	return b
}

// uriChars reports whether s holds only characters a URI may: no spaces or
// control characters, none of "<>\^`{|}, and each % followed by two hex
// digits; at most one #. Letters beyond ASCII are allowed, as Java allows
// them.
func uriChars(s []byte) bool {
	hashes := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c <= ' ' || c == 0x7f || bytes.IndexByte([]byte("\"<>\\^`{|}"), c) >= 0:
			return false
		case c == '#':
			hashes++
		case c == '%':
			if i+2 >= len(s) {
				return false
			}
			if _, ok := hexDigit(s[i+1]); !ok {
				return false
			}
			if _, ok := hexDigit(s[i+2]); !ok {
				return false
			}
		}
	}
	return hashes <= 1
}

// validScheme: a letter, then letters, digits, +, - and '.'.
func validScheme(s []byte) bool {
	for i, c := range s {
		letter := c|0x20 >= 'a' && c|0x20 <= 'z'
		if !letter && (i == 0 || !(c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.')) {
			return false
		}
	}
	return len(s) > 0
}

// percentDecoded is b with each %XX replaced by its byte, and with plus
// each + by a space (a form value); nil stays nil. parseURI has checked
// that every % starts an escape, so net/url cannot fail on it.
func percentDecoded(b []byte, plus bool) []byte {
	if b == nil {
		return nil
	}
	unescape := url.PathUnescape
	if plus {
		unescape = url.QueryUnescape
	}
	s, err := unescape(string(b))
	if err != nil {
		return b
	}
	return []byte(s)
}

// queryParameter is the raw value of the first parameter called name in
// query (name=value pairs joined by &), empty for a name without =, nil when
// there is none.
func queryParameter(query, name []byte) []byte {
	if query == nil {
		return nil
	}
	for pair := range bytes.SplitSeq(query, []byte("&")) {
		key, value, found := bytes.Cut(pair, []byte("="))
		if bytes.Equal(key, name) {
			if !found {
				return []byte{}
			}
			return value
		}
	}
	return nil
}
