package lang

import (
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// Every table has English's keys and no other, and a key's value has the
// same verbs, in the same order, in every table: a translation that drops
// or reorders an argument would print the wrong figure in the wrong place.
func TestTablesAgree(t *testing.T) {
	for l, tab := range tables {
		for k, v := range en {
			w, ok := tab[k]
			switch {
			case !ok:
				t.Errorf("%s lacks key %q", l, k)
			case !maps.Equal(args(v), args(w)):
				t.Errorf("%s %q: verbs %q, English has %q", l, k, verbs(w), verbs(v))
			case strings.TrimSpace(w) == "":
				t.Errorf("%s %q is empty", l, k)
			}
		}
		for k := range tab {
			if _, ok := en[k]; !ok {
				t.Errorf("%s has key %q, which English lacks", l, k)
			}
		}
	}
}

var verbsRE = regexp.MustCompile(`%[-+# 0]*[0-9]*(\.[0-9]+)?(\[[0-9]+\])?[a-zA-Z%]`)

// verbs are the fmt verbs of s, in order.
func verbs(s string) []string { return verbsRE.FindAllString(s, -1) }

// args is what each argument of s is formatted as, by its index from 1
// ("%s %[1]q" formats the first as both s and q): a translation may
// reorder them with explicit indexes (%[2]d), but must format the same
// arguments the same way.
func args(s string) map[int]string {
	out := map[int]string{}
	next := 1
	for _, v := range verbs(s) {
		if v == "%%" {
			continue
		}
		if i := strings.Index(v, "["); i >= 0 {
			next, _ = strconv.Atoi(v[i+1 : strings.Index(v, "]")])
		}
		out[next] += v[len(v)-1:]
		next++
	}
	return out
}

func TestVerbs(t *testing.T) {
	if got := verbs("a %s b %d%% %.1f"); !slices.Equal(got, []string{"%s", "%d", "%%", "%.1f"}) {
		t.Errorf("verbs: %q", got)
	}
	if a, b := args("fire %s's timer %d"), args("o temporizador %[2]d de %[1]s"); !maps.Equal(a, b) || len(a) != 2 {
		t.Errorf("reordered with indexes: %v and %v", a, b)
	}
	if a, b := args("%s then %d"), args("%d then %s"); maps.Equal(a, b) {
		t.Errorf("reordered without indexes passes: %v and %v", a, b)
	}
}

// known reports whether English has key, or, for a key ending in a dot
// (a lookup that adds a word to it: T("ex.fate." + fate)), a key that
// starts with it.
func known(key string) bool {
	if !strings.HasSuffix(key, ".") {
		_, ok := en[key]
		return ok
	}
	for k := range en {
		if strings.HasPrefix(k, key) {
			return true
		}
	}
	return false
}

// The lookups the sources make, by the key they name: in Go, X.T("key",
// ...); in the pages' JavaScript, T("key", ...); in their HTML templates,
// {{.L.T "key"}}.
var uses = map[string]*regexp.Regexp{
	".go":   regexp.MustCompile(`\.T\("([^"]+)"`),
	".js":   regexp.MustCompile(`\bT\("([^"]+)"`),
	".html": regexp.MustCompile(`\.L\.T\s+"([^"]+)"`),
}

// Every key the repository's code looks up is in the tables (which
// TestTablesAgree keeps equal), and the scan finds the lookups it should:
// a scan that found none would pass whatever the code asks.
func TestKeysUsedExist(t *testing.T) {
	found := map[string]int{}
	err := filepath.WalkDir("../..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "testdata" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		re := uses[filepath.Ext(path)]
		if d.IsDir() || re == nil || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, m := range re.FindAllStringSubmatch(string(b), -1) {
			found[filepath.Ext(path)]++
			if !known(m[1]) {
				t.Errorf("%s looks up %q, which the tables lack", path, m[1])
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, ext := range []string{".go", ".js", ".html"} {
		if found[ext] == 0 {
			t.Errorf("no lookup found in any %s file: the scan is broken", ext)
		}
	}
}

func TestLookup(t *testing.T) {
	if got := PT.T("check.exhausted", ""); got != "resultado: espaço esgotado, nenhuma violação" {
		t.Errorf("PT: %q", got)
	}
	if got := Lang("").T("check.exhausted", " within x"); got != "result: exhausted within x, no violation" {
		t.Errorf("zero Lang: %q", got)
	}
	if got := PT.T("no.such.key"); got != "«no.such.key»" {
		t.Errorf("missing key: %q", got)
	}
	if got := PT.Property("mutual exclusion"); got != "exclusão mútua" {
		t.Errorf("Property: %q", got)
	}
	if got := PT.Term("timer", "grant timeout"); got != "prazo de concessão" {
		t.Errorf("Term: %q", got)
	}
	if got := PT.Property("my own property"); got != "my own property" {
		t.Errorf("an algorithm's own property: %q", got)
	}
	for detail, want := range map[string]string{
		"the path ends before the run does":                                            "o caminho termina antes da execução",
		"P1 and P2 are in the critical section at once (t=6)":                          "P1 e P2 estão na seção crítica ao mesmo tempo (t=6)",
		"every request granted (9 entries); longest wait 6, P2":                        "todo pedido atendido (9 entradas); maior espera 6, P2",
		"every request granted (9 entries)":                                            "todo pedido atendido (9 entradas)",
		"a detail no table knows":                                                      "a detail no table knows",
		"2 grants, all in the order requests reached the coordinator":                  "2 concessões, todas conforme a ordem em que os pedidos chegaram ao coordenador",
		"P2 entered with request (5, 2) while P1 waited with the earlier (3, 1) (t=6)": "P2 entrou com o pedido (5, 2) enquanto P1 esperava com o anterior (3, 1) (t=6)",
	} {
		if got := PT.Detail(detail); got != want {
			t.Errorf("PT.Detail(%q) = %q, want %q", detail, got, want)
		}
		if got := EN.Detail(detail); got != detail {
			t.Errorf("EN.Detail(%q) = %q", detail, got)
		}
	}
	if PT.Tag() != "pt-BR" || Lang("").Tag() != "en" {
		t.Errorf("tags %q %q", PT.Tag(), Lang("").Tag())
	}
}

func TestParse(t *testing.T) {
	for s, want := range map[string]Lang{"en": EN, "pt": PT, "pt-BR": PT, "PT_br": PT, "EN": EN} {
		if l, err := Parse(s); err != nil || l != want {
			t.Errorf("Parse(%q) = %q, %v; want %q", s, l, err, want)
		}
	}
	for _, s := range []string{"", "fr", "pt-PT", "english"} {
		_, err := Parse(s)
		if err == nil || !strings.Contains(err.Error(), Names) {
			t.Errorf("Parse(%q): %v, want an error listing %s", s, err, Names)
		}
	}
}

// Parse accepts exactly the languages there are, and what it accepts
// names the language it reads back as.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"en", "pt", "pt-BR", "fr", "", "pt_br", "\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		l, err := Parse(s)
		if err != nil {
			if !strings.Contains(err.Error(), Names) {
				t.Errorf("Parse(%q): error %q does not list the languages", s, err)
			}
			return
		}
		if _, ok := tables[l]; !ok {
			t.Errorf("Parse(%q) = %q, which has no table", s, l)
		}
		if back, err := Parse(l.Tag()); err != nil || back != l {
			t.Errorf("Parse(%q) = %q, but its tag %q reads as %q, %v", s, l, l.Tag(), back, err)
		}
	})
}
