package expr

import (
	"fmt"
	"strconv"

	"github.com/tidwall/gjson"

	"github.com/lakesql/lakesql/planner"
)

// jsonPathCache parses a row's path only when it differs from the previous
// row's, so a constant path is parsed once per batch.
type jsonPathCache struct {
	syntax planner.JSONPathSyntax
	parsed bool
	text   string
	steps  []planner.JSONStep
	err    error
}

func (pc *jsonPathCache) get(path []byte) ([]planner.JSONStep, error) {
	if !pc.parsed || string(path) != pc.text {
		pc.parsed, pc.text = true, string(path)
		pc.steps, pc.err = planner.ParseJSONPath(pc.text, pc.syntax)
	}
	return pc.steps, pc.err
}

// jsonLookup follows steps from v. Each step walks the members or elements
// of the value it is on with gjson's ForEach and compares keys unescaped, so
// every key matches as written, whatever characters it holds.
func jsonLookup(v gjson.Result, steps []planner.JSONStep) (gjson.Result, bool) {
	for _, s := range steps {
		var ok bool
		switch {
		case s.Kind == planner.JSONKey, s.Kind == planner.JSONPointerToken && v.IsObject():
			v, ok = jsonMember(v, s.Key)
		case s.Kind == planner.JSONIndex:
			v, ok = jsonElement(v, s.Index)
		case s.Kind == planner.JSONIndexFromEnd:
			v, ok = jsonElement(v, jsonLength(v)-s.Index)
		case s.Kind == planner.JSONPointerToken && v.IsArray():
			v, ok = jsonPointerElement(v, s.Key)
		}
		if !ok {
			return gjson.Result{}, false
		}
	}
	return v, true
}

// jsonMember is the first member of object v named key.
func jsonMember(v gjson.Result, key string) (found gjson.Result, ok bool) {
	if !v.IsObject() {
		return found, false
	}
	v.ForEach(func(k, member gjson.Result) bool {
		if k.Str == key {
			found, ok = member, true
		}
		return !ok
	})
	return found, ok
}

// jsonElement is element i of array v, counting from 0.
func jsonElement(v gjson.Result, i int) (found gjson.Result, ok bool) {
	if !v.IsArray() || i < 0 {
		return found, false
	}
	at := 0
	v.ForEach(func(_, element gjson.Result) bool {
		if at == i {
			found, ok = element, true
		}
		at++
		return !ok
	})
	return found, ok
}

// jsonPointerElement reads a JSON Pointer token on an array: a decimal
// index without a sign or leading zeros (RFC 6901).
func jsonPointerElement(v gjson.Result, token string) (gjson.Result, bool) {
	i, err := strconv.Atoi(token)
	if err != nil || token[0] == '-' || token[0] == '+' || len(token) > 1 && token[0] == '0' {
		return gjson.Result{}, false
	}
	return jsonElement(v, i)
}

// jsonLength is the number of elements of array v, 0 for anything else.
func jsonLength(v gjson.Result) int {
	n := 0
	if v.IsArray() {
		v.ForEach(func(_, _ gjson.Result) bool { n++; return true })
	}
	return n
}

// appendJSON writes v as compact JSON text, as DuckDB's writer does: no
// whitespace, strings re-escaped, numbers as written in the input.
func appendJSON(dst []byte, v gjson.Result) []byte {
	switch {
	case v.Type == gjson.String:
		return appendJSONString(dst, v.Str)
	case v.IsObject():
		dst = append(dst, '{')
		first := true
		v.ForEach(func(k, member gjson.Result) bool {
			if !first {
				dst = append(dst, ',')
			}
			first = false
			dst = append(appendJSONString(dst, k.Str), ':')
			dst = appendJSON(dst, member)
			return true
		})
		return append(dst, '}')
	case v.IsArray():
		dst = append(dst, '[')
		first := true
		v.ForEach(func(_, element gjson.Result) bool {
			if !first {
				dst = append(dst, ',')
			}
			first = false
			dst = appendJSON(dst, element)
			return true
		})
		return append(dst, ']')
	}
	return append(dst, v.Raw...)
}

// appendJSONString writes s as a JSON string, escaping only what JSON
// requires: quotes, backslashes and control characters.
func appendJSONString(dst []byte, s string) []byte {
	const hex = "0123456789abcdef"
	dst = append(dst, '"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '"', '\\':
			dst = append(dst, '\\', c)
		case '\n':
			dst = append(dst, '\\', 'n')
		case '\r':
			dst = append(dst, '\\', 'r')
		case '\t':
			dst = append(dst, '\\', 't')
		case '\b':
			dst = append(dst, '\\', 'b')
		case '\f':
			dst = append(dst, '\\', 'f')
		default:
			if c < 0x20 {
				dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&15])
			} else {
				dst = append(dst, c)
			}
		}
	}
	return append(dst, '"')
}

// malformedJSON is the error for a row whose text is not JSON; it quotes
// the start of the text.
func malformedJSON(doc []byte) error {
	const shown = 60
	if len(doc) > shown {
		return fmt.Errorf("malformed JSON: %q…", doc[:shown])
	}
	return fmt.Errorf("malformed JSON: %q", doc)
}
