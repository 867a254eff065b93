// Package lang holds the words ringlab shows a person, one table per
// language: the verdict lines of runs and checks, and every fixed string
// of the browser pages (the explorer and the replay page).
//
// A Lang is a language; its zero value is English, the default. T looks a
// key up and formats it with fmt's verbs, as fmt.Sprintf does:
//
//	lang.PT.T("check.exhausted", "") // "resultado: esgotado, nenhuma violação"
//
// Both tables have the same keys, and each key the same verbs in the
// same order in both; the package's tests check it, and that every key
// the Go code, the pages' HTML and their JavaScript look up exists. A key
// missing from a table is shown as English, and a key missing from both
// as the key itself between « and », so that a page shows what is
// missing rather than nothing.
//
// Names that algorithms give their properties ("mutual exclusion", "no
// starvation") are translated by Property where the table knows them;
// an algorithm's own name for one it defines stays as it is.
package lang

import (
	"cmp"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// Lang is a language of the tables: EN or PT. The zero value is EN.
type Lang string

// The languages: English (the default) and Brazilian Portuguese, the
// language of the course the algorithms come from.
const (
	EN Lang = "en"
	PT Lang = "pt-BR"
)

// tables holds one table of messages per language, by key.
var tables = map[Lang]map[string]string{EN: en, PT: pt}

// Names lists the languages as the --lang flag takes them.
const Names = "en or pt (pt-BR)"

// Parse reads a language as a --lang flag gives it: en, pt or pt-BR
// (any case; "pt_BR" too). Its error names the languages there are.
func Parse(s string) (Lang, error) {
	switch strings.ToLower(strings.ReplaceAll(s, "_", "-")) {
	case "en", "en-us", "en-gb":
		return EN, nil
	case "pt", "pt-br":
		return PT, nil
	}
	return EN, fmt.Errorf("unknown language %q (want %s)", s, Names)
}

// Tag is l's language tag, as HTML's lang attribute takes it: "en" or
// "pt-BR".
func (l Lang) Tag() string {
	if l == "" {
		return string(EN)
	}
	return string(l)
}

// T is the message key in l, formatted with args as fmt.Sprintf formats
// them. A key l's table lacks is taken from English; one both lack is
// «key».
func (l Lang) T(key string, args ...any) string {
	s, ok := tables[l.norm()][key]
	if !ok {
		s, ok = en[key]
	}
	if !ok {
		return "«" + key + "»"
	}
	if len(args) == 0 {
		return s
	}
	return fmt.Sprintf(s, args...)
}

// Property is the name of the property id in l: the table's word for one
// it knows ("mutual exclusion" is "exclusão mútua" in PT), else id.
func (l Lang) Property(id string) string { return l.Term("property", id) }

// Term is name in l, a name an algorithm gives a thing of kind
// ("property", "timer"): the table's word for it (keyed kind.name), else
// name as the algorithm wrote it.
func (l Lang) Term(kind, name string) string {
	if s, ok := tables[l.norm()][kind+"."+name]; ok {
		return s
	}
	return name
}

// Detail is a verdict's detail in l: the table's words for a detail
// stated in fixed words ("the path ends before the run does") or in a
// pattern whose verbs stand for the figures and names it carries
// ("%s are in the critical section at once (t=%s)"), else detail as it
// is.
func (l Lang) Detail(detail string) string {
	t := tables[l.norm()]
	if s, ok := t["detail."+detail]; ok || l.norm() == EN {
		return cmp.Or(s, detail)
	}
	for _, p := range patterns() {
		if m := p.re.FindStringSubmatch(detail); m != nil {
			args := make([]any, len(m)-1)
			for i, a := range m[1:] { // "P1 and P2": a list of names, joined in l
				args[i] = l.Term("order", strings.ReplaceAll(a, en["list.and"], t["list.and"])) // a promised order, in words
			}
			return fmt.Sprintf(verbRE.ReplaceAllString(t[p.key], "%s"), args...)
		}
	}
	return detail
}

// verbRE matches a fmt verb.
var verbRE = regexp.MustCompile(`%[-+# 0-9.]*(\[[0-9]+\])?[a-zA-Z]`)

// pattern is a detail key with verbs, and the expression that matches a
// detail it formats, one group per verb.
type pattern struct {
	key string
	re  *regexp.Regexp
}

// patterns are the detail keys with verbs, longest first (the most
// specific wins).
var patterns = sync.OnceValue(func() []pattern {
	var ps []pattern
	for k := range en {
		words, ok := strings.CutPrefix(k, "detail.")
		if !ok || !verbRE.MatchString(words) {
			continue
		}
		parts := verbRE.Split(words, -1)
		for i, s := range parts {
			parts[i] = regexp.QuoteMeta(s)
		}
		ps = append(ps, pattern{k, regexp.MustCompile("^" + strings.Join(parts, "(.+?)") + "$")})
	}
	slices.SortFunc(ps, func(a, b pattern) int { return cmp.Or(len(b.key)-len(a.key), strings.Compare(a.key, b.key)) })
	return ps
})

// Properties is Property of each id, joined by ", ".
func (l Lang) Properties(ids []string) string {
	s := make([]string, len(ids))
	for i, id := range ids {
		s[i] = l.Property(id)
	}
	return strings.Join(s, ", ")
}

// Table is a copy of l's whole table, for a page that looks its own
// strings up: the keys English has, each in l.
func (l Lang) Table() map[string]string {
	t := maps.Clone(en)
	maps.Copy(t, tables[l.norm()])
	return t
}

func (l Lang) norm() Lang {
	if l == "" {
		return EN
	}
	return l
}
