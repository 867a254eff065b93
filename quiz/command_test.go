package quiz

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"

	"ringlab/engine/cliutil"
)

// runQuiz runs `ringlab quiz ARGS` in-process and returns the exit code,
// standard output and the error's text.
func runQuiz(t *testing.T, args ...string) (int, string, error) {
	t.Helper()
	var out, errb bytes.Buffer
	cmds := []*cli.Command{Command()}
	cliutil.Prepare(cmds)
	app := &cli.App{Name: "ringlab", Commands: cmds, Writer: &out, ErrWriter: &errb, ExitErrHandler: func(*cli.Context, error) {}}
	err := app.RunContext(t.Context(), append([]string{"ringlab", "quiz"}, args...))
	return cliutil.Code(err), out.String(), err
}

// Bad input exits 2 and names the flag.
func TestBadInputNamesTheFlag(t *testing.T) {
	for _, c := range []struct {
		flag string
		args []string
	}{
		{"topic", []string{"--topic", "astrology"}},
		{"lang", []string{"--lang", "fr"}},
		{"format", []string{"--format", "yaml"}},
		{"count", []string{"--count", "0"}},
		{"count", []string{"--count", "-3"}},
		{"count", []string{"--count", "101"}},
		{"answer", []string{"--count", "2", "--answer", "3"}},
		{"answer", []string{"--answer", " "}},
		{"format", []string{"--format", "md", "--answer", "3"}},
	} {
		code, _, err := runQuiz(t, append(c.args, "--seed", "1")...)
		var ue *cliutil.UsageError
		if code != cliutil.ExitUsage || !errors.As(err, &ue) || ue.Flag != c.flag || !strings.Contains(err.Error(), "--"+c.flag) {
			t.Errorf("%v: exit %d, %v; want exit 2 naming --%s", c.args, code, err, c.flag)
		}
	}
	if code, _, _ := runQuiz(t, "--seed", "x"); code != cliutil.ExitUsage {
		t.Errorf("--seed x: exit %d, want 2", code)
	}
}

// The same seed draws the same question; the Portuguese one is another text
// with the same answer (in its words: "sim" for "yes") and replay.
func TestSeedRepeatsAndLang(t *testing.T) {
	_, a, _ := runQuiz(t, "--seed", "5", "--format", "json")
	_, b, _ := runQuiz(t, "--seed", "5", "--format", "json")
	_, pt, _ := runQuiz(t, "--seed", "5", "--format", "json", "--lang", "pt")
	if a != b || a == "" {
		t.Fatalf("seed 5 twice:\n%s\n%s", a, b)
	}
	en, _ := Make(t.Context(), "", 5, "en")
	ptq, _ := Make(t.Context(), "", 5, "pt")
	if en.Text == ptq.Text || en.Explanation == ptq.Explanation || !ptq.Right(en.Answer) || en.Replay != ptq.Replay || !strings.Contains(pt, `"lang":"pt"`) {
		t.Errorf("pt: %+v\nen: %+v", ptq, en)
	}
}

// Every kind is drawn under its own name as a topic, in both languages,
// and the sheet numbers its questions and then its answers.
func TestKindsAndSheet(t *testing.T) {
	for _, k := range Kinds() {
		for _, lang := range Langs {
			if _, err := Make(t.Context(), k, 1, lang); err != nil {
				t.Errorf("%s %s: %v", k, lang, err)
			}
		}
	}
	code, out, err := runQuiz(t, "--format", "md", "--count", "3", "--seed", "2", "--lang", "pt")
	if code != 0 || strings.Count(out, "\n1. ") != 2 || !strings.Contains(out, "## Gabarito") || !strings.Contains(out, "\n3. **") {
		t.Errorf("sheet: exit %d (%v)\n%s", code, err, out)
	}
}

// --answer exits 0 for the answer in another spelling and 3 for another,
// with the explanation both times.
func TestAnswerExitCodes(t *testing.T) {
	q, err := Make(t.Context(), "bully-leader", 3, "en")
	if err != nil {
		t.Fatal(err)
	}
	for reply, want := range map[string]int{"node " + q.Answer: 0, "P" + q.Answer: 0, q.Answer + "0": 3, "maybe": 3} {
		code, out, _ := runQuiz(t, "--topic", "bully-leader", "--seed", "3", "--answer", reply)
		if code != want || !strings.Contains(out, q.Explanation) {
			t.Errorf("--answer %q: exit %d, want %d\n%s", reply, code, want, out)
		}
	}
}

// The command a question prints to answer it draws the same question: with
// --topic and --lang, and whatever the seed.
func TestReplyCommandRepeatsTheQuestion(t *testing.T) {
	code, out, _ := runQuiz(t, "--topic", "clocks", "--seed", "4", "--lang", "pt")
	q, err := Make(t.Context(), "clocks", 4, "pt")
	if err != nil || code != 0 {
		t.Fatal(code, err)
	}
	_, line, ok := strings.Cut(out, "Responda com: ringlab quiz ")
	args := strings.Fields(strings.TrimSuffix(strings.TrimSpace(line), " --answer '...'"))
	if !ok || strings.Join(args, " ") != "--seed 4 --topic clocks --lang pt" {
		t.Fatalf("reply line: %q", line)
	}
	if code, _, err := runQuiz(t, append(args, "--answer", q.Answer)...); code != 0 {
		t.Errorf("%v --answer %s: exit %d (%v)", args, q.Answer, code, err)
	}
}
