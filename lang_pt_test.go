package main

// --lang pt: the verdict lines of runs and checks in Portuguese.

import (
	"strings"
	"testing"

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
