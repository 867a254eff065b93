package main

// --lang pt: the verdict lines of runs and checks in Portuguese, and both
// pages (the explorer and the replay page) with lang="pt-BR" and none of
// the English table's words left in what they show.

import (
	"bytes"
	"cmp"
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"ringlab/engine/lang"
)

// A run and a check print their verdict lines in Portuguese under --lang pt
// (or pt-BR), the property names the course's; an unknown language is exit
// 2 naming the flag and the languages there are.
func TestLangVerdictLines(t *testing.T) {
	cases := []struct {
		args []string
		code int
		want []string // on stdout and stderr together
	}{
		{[]string{"mutex", "lamport", "--nodes", "2", "--seed", "1", "--lang", "pt"}, 0,
			[]string{"✓ exclusão mútua: nunca dois nós dentro ao mesmo tempo, na ordem em que os eventos ocorreram\n", "✓ ausência de impasse (deadlock)\n", "✓ terminação\n"}},
		{[]string{"mutex", "check", "lamport", "--nodes", "2", "--lang", "pt"}, 0,
			[]string{"resultado: espaço esgotado, nenhuma violação\n",
				"provado: exclusão mútua, ordem de concessão, ausência de impasse (deadlock), ausência de inanição, terminação, em todos os 43 estados\n"}},
		{[]string{"mutex", "check", "lamport", "--nodes", "2", "--policy", "random", "--lang", "pt-BR"}, 3,
			[]string{"resultado: VIOLAÇÃO de ordem de concessão após 4 passos (um caminho mais curto): ",
				"– terminação: veredito não alcançado (o caminho termina antes da execução)\n"}},
		{[]string{"election", "check", "ring", "--nodes", "3", "--lang", "pt"}, 0,
			[]string{"provado: terminação, unicidade, acordo, correção, em todos os "}},
		{[]string{"election", "ring", "--seed", "1", "--lang", "pt"}, 0,
			[]string{"✓ Líder eleito", "✓ acordo\n", "✓ correção: "}},
	}
	for _, c := range cases {
		code, out, errb := runCLI(t, t.Context(), c.args...)
		if code != c.code {
			t.Errorf("%v: exit %d, want %d\n%s", c.args, code, c.code, errb)
		}
		for _, w := range c.want {
			if !strings.Contains(out+errb, w) {
				t.Errorf("%v: no %q in\n%s%s", c.args, w, out, errb)
			}
		}
		for _, en := range []string{"✓ mutual exclusion", "proved:", "result:", "✓ termination", "not reached"} {
			if strings.Contains(out+errb, en) {
				t.Errorf("%v: English %q left in\n%s%s", c.args, en, out, errb)
			}
		}
	}
	for _, args := range [][]string{
		{"mutex", "lamport", "--lang", "fr"},
		{"mutex", "check", "lamport", "--lang", "fr"},
		{"mutex", "check", "lamport", "--serve", "--lang", "fr"},
		{"election", "ring", "--lang", "fr"},
	} {
		code, _, errb := runCLI(t, t.Context(), args...)
		if code != 2 || !strings.Contains(errb, `--lang: unknown language "fr" (want `+lang.Names+")") {
			t.Errorf("%v: exit %d, stderr %q; want 2 naming --lang and the languages", args, code, errb)
		}
	}
}

// english are the words of the English table a page must not show in
// Portuguese: for each key whose words differ, the parts between the fmt
// verbs of two words or more. A single word ("command", "leader",
// "pending") is left out: the algorithms' own names for their fields,
// states and commands, which a page shows as they are, use the same.
func english() []string {
	verb := regexp.MustCompile(`%[-+# 0-9.]*[a-zA-Z%]`)
	pt := lang.PT.Table()
	var out []string
	for k, v := range lang.EN.Table() {
		if pt[k] == v {
			continue
		}
		for _, part := range verb.Split(v, -1) {
			if part = strings.Trim(part, " .,;:()—-–|▶◀⚠⚡⟲↺↩…"); strings.Contains(part, " ") {
				out = append(out, part)
			}
		}
	}
	return out
}

// englishLeft fails t for each English part the page shows (its
// document.body.innerText, titles and labels aside) and checks its lang.
func englishLeft(t *testing.T, ctx context.Context, what string) {
	t.Helper()
	if got := eval[string](t, ctx, `document.documentElement.lang`); got != "pt-BR" {
		t.Errorf("%s: <html lang=%q>, want pt-BR", what, got)
	}
	text := eval[string](t, ctx, `document.body.innerText`)
	if len(text) < 200 {
		t.Fatalf("%s: the page shows almost nothing: %q", what, text)
	}
	for _, e := range english() {
		if strings.Contains(text, e) {
			t.Errorf("%s: English %q left in the page:\n%s", what, e, text)
		}
	}
}

// The explorer in Portuguese on the four cases, each walked to its
// violation with the page's own "shortest way" button (the banner, the
// path, the fates and the point of no return all shown; Ricart-Agrawala,
// correct, says none is reachable), then the replay
// page of the chapter's slow holder (mutex scenario central-slow), which
// opens at its violation. One Chromium.
func TestPortuguesePages(t *testing.T) {
	ctx := browser(t)
	for _, c := range []struct {
		name, at string // at: where the page opens
		args     []string
	}{
		{"lamport", "", []string{"mutex", "check", "lamport", "--nodes", "2", "--policy", "random", "--property", "mutual-exclusion"}},
		{"central", "", []string{"mutex", "check", "central", "--nodes", "3", "--grant-timeout", "10"}},
		{"anonymous", "", []string{"election", "check", "anonymous", "--nodes", "3", "--initiators", "all"}},
		// correct: the shortest way finds none; opened with three requests on their way
		{"ricart-agrawala", "c1,c2,c3", []string{"mutex", "check", "ricart-agrawala", "--nodes", "3", "--policy", "random"}},
	} {
		base := explorerServer(t, append(c.args, "--lang", "pt")...)
		openAt(t, ctx, base, c.at)
		englishLeft(t, ctx, c.name+" at "+cmp.Or(c.at, "the initial state"))
		do(t, ctx, chromedp.Click(chromedp.CSS("#shortest")))
		if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`window.explorer.ready && document.getElementById("shortNote").textContent !== "procurando…"`, chromedp.WithPollingTimeout(60*time.Second))); err != nil {
			t.Fatal(err)
		}
		englishLeft(t, ctx, c.name+" after the shortest way")
	}
	ctx2, cancel := context.WithCancel(t.Context())
	defer cancel()
	stderr := &announced{url: make(chan string, 1)}
	done := make(chan int, 1)
	go func() {
		done <- run(ctx2, []string{"ringlab", "mutex", "scenario", "central-slow", "--format", "none",
			"--serve", "--serve-addr", "127.0.0.1:0", "--lang", "pt"}, &bytes.Buffer{}, stderr)
	}()
	select {
	case url := <-stderr.url:
		open(t, ctx, url)
	case code := <-done:
		t.Fatalf("the run ended before serving: exit %d", code)
	}
	if eval[string](t, ctx, `document.getElementById("banner").textContent`) == "" {
		t.Error("the replay page shows no violation")
	}
	englishLeft(t, ctx, "the replay page")
	cancel()
	<-done
}
