package serve

import (
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"

	"ringlab/engine/lang"
)

// A Server in Portuguese writes its pages with lang="pt-BR", the fixed
// words from the Portuguese table, the failed property by its Portuguese
// name, and the table itself for the page's scripts; in English as before.
func TestPagesInLang(t *testing.T) {
	for _, c := range []struct {
		l          lang.Lang
		tag, words string
	}{
		{lang.PT, "pt-BR", "execuções servidas"},
		{lang.EN, "en", "runs served"},
	} {
		s := Server{Lang: c.l}
		if _, err := s.AddLog("ring", []byte(ringLog)); err != nil {
			t.Fatal(err)
		}
		ts := httptest.NewServer(s.Handler(true))
		for _, path := range []string{"/", "/run/1"} {
			_, body := get(t, "GET", ts.URL+path, nil)
			if !strings.Contains(body, `<html lang="`+c.tag+`">`) || strings.Contains(body, "«") {
				t.Errorf("%s %s: no lang %q, or a key missing:\n%.400s", c.tag, path, c.tag, body)
			}
			_, table, ok := strings.Cut(body, `<script id="words" type="application/json">`)
			table, _, _ = strings.Cut(table, "</script>")
			var words map[string]string
			if err := json.Unmarshal([]byte(table), &words); !ok || err != nil || words["rp.runs"] != c.l.T("rp.runs") {
				t.Errorf("%s %s: the page's table does not parse or is not the language's (%v)", c.tag, path, err)
			}
		}
		if _, body := get(t, "GET", ts.URL+"/", nil); !strings.Contains(body, c.words) || !strings.Contains(body, "✗ "+c.l.Property("uniqueness")) {
			t.Errorf("%s: the list page lacks %q or the failed property's name:\n%s", c.tag, c.words, body)
		}
		ts.Close()
	}
}
