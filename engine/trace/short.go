package trace

import (
	"bytes"
	"encoding/json"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Short writes a message as its type and its fields in short form, the
// way a textbook labels arrows: REQUEST(T=110, id=80). A one-letter field
// name is upper-cased (T for a timestamp); a "kind" field that repeats the
// type is left out; long values are cut with "…".
func Short(m *Msg) string {
	if m == nil {
		return "?"
	}
	return OneLine(short(m))
}

func short(m *Msg) string {
	typ := m.Type()
	var obj map[string]json.RawMessage
	if json.Unmarshal(m.Fields(), &obj) != nil || len(obj) == 0 {
		return typ
	}
	keys := make([]string, 0, len(obj))
	for k, v := range obj {
		if k == "kind" || k == "type" {
			var s string
			if json.Unmarshal(v, &s) == nil && s == typ {
				continue
			}
		}
		keys = append(keys, k)
	}
	for i, k := range keys {
		if r, size := utf8.DecodeRuneInString(k); size == len(k) && unicode.IsLower(r) {
			keys[i] = strings.ToUpper(k)
		}
	}
	sortKeys(keys)
	if len(keys) == 0 {
		return typ
	}
	var b strings.Builder
	b.WriteString(typ)
	b.WriteByte('(')
	for i, k := range keys {
		if i > 0 {
			b.WriteString(", ")
		}
		raw, ok := obj[k]
		if !ok {
			raw = obj[strings.ToLower(k)]
		}
		b.WriteString(k)
		b.WriteByte('=')
		b.WriteString(shortValue(raw))
	}
	b.WriteByte(')')
	return b.String()
}

// sortKeys sorts field names case-insensitively, upper case first on a tie.
func sortKeys(keys []string) {
	for i := 1; i < len(keys); i++ {
		for j := i; j > 0 && less(keys[j], keys[j-1]); j-- {
			keys[j], keys[j-1] = keys[j-1], keys[j]
		}
	}
}

func less(a, b string) bool {
	if sa, sb := len(a) == 1, len(b) == 1; sa != sb { // T first: the chapter writes (T, id)
		return sa
	}
	la, lb := strings.ToLower(a), strings.ToLower(b)
	if la != lb {
		return la < lb
	}
	return a < b
}

const maxValue = 24

func shortValue(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return Cut(s, maxValue)
	}
	var c bytes.Buffer
	if json.Compact(&c, raw) != nil {
		return "?"
	}
	return Cut(c.String(), maxValue)
}

// Cut shortens s to at most n runes, ending in "…" when it cut.
func Cut(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// OneLine replaces every line break, control character and bidirectional
// control (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C) in s by a
// space: text from a log cannot start a new line in any output, nor
// reverse the text around it.
func OneLine(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '\u2028' || r == '\u2029' || r == '\u0085' || unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r) || r == utf8.RuneError {
			return ' '
		}
		return r
	}, s)
}
