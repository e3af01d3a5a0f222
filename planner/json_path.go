package planner

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// JSONStep is one step of a JSON path: an object key, an array index, or a
// JSON Pointer token, which is either.
type JSONStep struct {
	Kind  JSONStepKind
	Key   string // JSONKey, JSONPointerToken
	Index int    // JSONIndex, JSONIndexFromEnd (1 is the last element)
}

// JSONStepKind says how a JSONStep selects a child.
type JSONStepKind uint8

const (
	JSONKey          JSONStepKind = iota // an object's member
	JSONIndex                            // an array's element, from 0
	JSONIndexFromEnd                     // an array's element counted from the end
	JSONPointerToken                     // a member, or an element when the value is an array
)

// JSONPathSyntax is which path forms a function takes.
type JSONPathSyntax uint8

const (
	// JSONPathDuckDB: '$.a[0]', a JSON Pointer '/a/0', or a plain key 'a'.
	JSONPathDuckDB JSONPathSyntax = iota
	// JSONPathDollar: only '$…' paths (Spark, Trino).
	JSONPathDollar
)

// ParseJSONPath reads a path into steps; none selects the whole document.
// '$' paths take .key, ."key", ['key'], ["key"], [n], [-n] and [#-n] (n
// from the end); keys are matched as written, whatever characters they
// hold. DuckDB also reads "/a/b" as a JSON Pointer (RFC 6901; the empty
// path is the whole document) and any other text as one key.
func ParseJSONPath(path string, syntax JSONPathSyntax) ([]JSONStep, error) {
	switch {
	case strings.HasPrefix(path, "$"):
		return parseDollarPath(path)
	case syntax == JSONPathDollar:
		return nil, fmt.Errorf("JSON path %q must start with $", path)
	case path == "":
		return nil, nil
	case strings.HasPrefix(path, "/"):
		return parseJSONPointer(path), nil
	}
	return []JSONStep{{Kind: JSONKey, Key: path}}, nil
}

func parseDollarPath(path string) ([]JSONStep, error) {
	var steps []JSONStep
	rest := path[1:]
	for rest != "" {
		at := rest
		var step JSONStep
		var err error
		switch rest[0] {
		case '.':
			step, rest, err = dotKey(rest[1:])
		case '[':
			step, rest, err = bracket(rest[1:])
		default:
			err = errJSONPath
		}
		if err != nil {
			return nil, fmt.Errorf("JSON path %q: %w near %q", path, err, at)
		}
		steps = append(steps, step)
	}
	return steps, nil
}

var errJSONPath = errors.New("syntax error")

// ErrJSONWildcard is the error for a path with * in it: every function
// reports it, even get_json_object, whose other path mistakes give NULL as
// in Spark, because Spark reads such a path and lakesql does not.
var ErrJSONWildcard = errors.New("wildcards are not supported")

// dotKey reads the key after '.': a quoted key up to its closing quote, or
// the text up to the next '.' or '['.
func dotKey(s string) (JSONStep, string, error) {
	if strings.HasPrefix(s, `"`) {
		key, rest, ok := quotedKey(s)
		if !ok {
			return JSONStep{}, s, errJSONPath
		}
		return JSONStep{Kind: JSONKey, Key: key}, rest, nil
	}
	end := strings.IndexAny(s, ".[")
	if end < 0 {
		end = len(s)
	}
	switch s[:end] {
	case "":
		return JSONStep{}, s, errJSONPath
	case "*":
		return JSONStep{}, s, ErrJSONWildcard
	}
	return JSONStep{Kind: JSONKey, Key: s[:end]}, s[end:], nil
}

// quotedKey reads a key in double or single quotes, in which a backslash
// escapes the next character.
func quotedKey(s string) (key, rest string, ok bool) {
	quote := s[0]
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		switch c := s[i]; {
		case c == quote:
			return b.String(), s[i+1:], true
		case c == '\\' && i+1 < len(s):
			i++
			b.WriteByte(s[i])
		default:
			b.WriteByte(c)
		}
	}
	return "", s, false
}

// bracket reads what follows '[': a quoted key or an index, then ']'.
func bracket(s string) (JSONStep, string, error) {
	if strings.HasPrefix(s, `"`) || strings.HasPrefix(s, "'") {
		key, rest, ok := quotedKey(s)
		if !ok || !strings.HasPrefix(rest, "]") {
			return JSONStep{}, s, errJSONPath
		}
		return JSONStep{Kind: JSONKey, Key: key}, rest[1:], nil
	}
	end := strings.IndexByte(s, ']')
	if end < 0 {
		return JSONStep{}, s, errJSONPath
	}
	text, rest := s[:end], s[end+1:]
	step := JSONStep{Kind: JSONIndex}
	switch {
	case text == "*":
		return JSONStep{}, s, ErrJSONWildcard
	case strings.HasPrefix(text, "#-"):
		step.Kind, text = JSONIndexFromEnd, text[2:]
	case strings.HasPrefix(text, "-"):
		step.Kind, text = JSONIndexFromEnd, text[1:]
	}
	n, err := strconv.Atoi(text)
	if err != nil || n < 0 || text[0] == '+' || step.Kind == JSONIndexFromEnd && n == 0 {
		return JSONStep{}, s, errJSONPath
	}
	step.Index = n
	return step, rest, nil
}

// parseJSONPointer splits '/a/b' into tokens, undoing ~1 (/) and ~0 (~).
func parseJSONPointer(path string) []JSONStep {
	tokens := strings.Split(path[1:], "/")
	steps := make([]JSONStep, len(tokens))
	unescape := strings.NewReplacer("~1", "/", "~0", "~")
	for i, t := range tokens {
		steps[i] = JSONStep{Kind: JSONPointerToken, Key: unescape.Replace(t)}
	}
	return steps
}
