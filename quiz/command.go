package quiz

import (
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"ringlab/engine/cliutil"
)

// MaxCount bounds --count: every question runs the lab.
const MaxCount = 100

// Command returns the `quiz` command.
func Command() *cli.Command {
	return &cli.Command{
		Name:  "quiz",
		Usage: "questions on the chapter whose answers the lab computes: --answer checks a reply (exit 0 right, 3 wrong)",
		UsageText: "ringlab quiz [--topic T] [--seed S] [--lang en|pt] [--format text|json|md] [--answer A] [--count K]\n\n" +
			"Examples:\n   ringlab quiz --seed 7\n   ringlab quiz --seed 7 --answer 10\n   ringlab quiz --format md --count 20 --seed 1 --lang pt",
		Description: "Each question is drawn from --seed (the same seed, the same question) and answered by\n" +
			"running or checking the lab in-process; its replay is a ringlab command whose output shows\n" +
			"the answer. A reply is compared case- and space-blind: \"P3\", \"node 3\", \"N3\" and \"3\" are one\n" +
			"reply; yes/sim/y and no/não/n; a probability within 0.5% (\"65.7%\" works).",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "topic", Usage: "a topic (" + strings.Join(Topics(), ", ") + ") or a kind of question (" + strings.Join(Kinds(), ", ") + ")", DefaultText: "any"},
			&cli.Uint64Flag{Name: "seed", Usage: "seed of the question; question i of a --count sheet is that of seed S+i-1", DefaultText: "drawn and printed on stderr"},
			&cli.StringFlag{Name: "lang", Value: "en", Usage: "language: en or pt (Brazilian Portuguese)"},
			&cli.StringFlag{Name: "format", Value: "text", Usage: "text, json (one object per question: question, answer, explanation, replay, kind, topic, seed) or md (a sheet, then its answer key)"},
			&cli.StringFlag{Name: "answer", Usage: "check this reply to the question: exit 0 right, 3 wrong, with the explanation either way", DefaultText: "none"},
			&cli.IntFlag{Name: "count", Value: 1, Usage: fmt.Sprintf("questions, of seeds S, S+1, ... (1..%d)", MaxCount)},
		},
		Action: action,
	}
}

// options are the command's flags, checked.
type options struct {
	topic, lang, format, answer string
	seed                        uint64
	count                       int
	answering                   bool
}

// parse checks the flags; an error names the flag (exit 2).
func parse(c *cli.Context) (options, error) {
	o := options{topic: c.String("topic"), lang: c.String("lang"), format: c.String("format"),
		answer: c.String("answer"), seed: c.Uint64("seed"), count: c.Int("count"), answering: c.IsSet("answer")}
	if o.topic == "any" {
		o.topic = ""
	}
	switch {
	case o.topic != "" && !slices.Contains(Topics(), o.topic) && !slices.Contains(Kinds(), o.topic):
		return o, cliutil.FlagUsagef("topic", "--topic %q: want one of %s, or a kind: %s", o.topic, strings.Join(Topics(), ", "), strings.Join(Kinds(), ", "))
	case !slices.Contains(Langs, o.lang):
		return o, cliutil.FlagUsagef("lang", "--lang %q: want en or pt", o.lang)
	case !slices.Contains([]string{"text", "json", "md"}, o.format):
		return o, cliutil.FlagUsagef("format", "--format %q: want text, json or md", o.format)
	case o.count < 1 || o.count > MaxCount:
		return o, cliutil.FlagUsagef("count", "--count must be between 1 and %d, got %d", MaxCount, o.count)
	case o.answering && o.count > 1:
		return o, cliutil.FlagUsagef("answer", "--answer checks one question: not with --count %d", o.count)
	case o.answering && o.format == "md":
		return o, cliutil.FlagUsagef("format", "--format md prints a sheet: not with --answer")
	case o.answering && strings.TrimSpace(o.answer) == "":
		return o, cliutil.FlagUsagef("answer", "--answer is empty")
	}
	if !c.IsSet("seed") {
		o.seed = rand.Uint64N(1 << 32)
		fmt.Fprintf(c.App.ErrWriter, "seed: %d\n", o.seed)
	}
	return o, nil
}

func action(c *cli.Context) error {
	if err := cliutil.NoArgs(c); err != nil {
		return err
	}
	o, err := parse(c)
	if err != nil {
		return err
	}
	qs := make([]Question, o.count)
	for i := range qs {
		if qs[i], err = Make(c.Context, o.topic, o.seed+uint64(i), o.lang); err != nil {
			return err
		}
	}
	w := c.App.Writer
	switch {
	case o.answering:
		return qs[0].Check(w, o.answer, o.format)
	case o.format == "json":
		return writeJSON(w, qs, nil)
	case o.format == "md":
		writeSheet(w, qs, o)
	default:
		writeText(w, qs, o)
	}
	return nil
}

// Check judges reply to q, prints the verdict and the explanation (as one
// JSON object if format is "json"), and returns an error of exit code 3
// (cliutil.ExitViolation) if the reply is wrong: what `--answer` does.
func (q Question) Check(w io.Writer, reply, format string) error {
	right := q.Right(reply)
	if format == "json" {
		if err := writeJSON(w, []Question{q}, &right); err != nil {
			return err
		}
	} else {
		fmt.Fprintf(w, "%s\n\n%s %s\n%s\n%s %s\n", q.Text, word(q.Lang, right), q.Answer, q.Explanation, word(q.Lang, "replay"), q.Replay)
	}
	if !right {
		return &cliutil.ExitError{Code: cliutil.ExitViolation, Err: fmt.Errorf("wrong answer %q to %s (%s): the answer is %s", reply, q.Command(), q.Kind, q.Answer)}
	}
	return nil
}

// word is a fixed word of the output in lang: the verdict on a reply, or
// a label.
func word(lang string, v any) string {
	w := map[any]both{
		true: {"Right: the answer is", "Certo: a resposta é"}, false: {"Wrong: the answer is", "Errado: a resposta é"},
		"replay": {"See it:", "Veja:"}, "answer": {"Answer:", "Resposta:"},
		"reply": {"Reply with:", "Responda com:"}, "questions": {"Questions", "Questões"}, "key": {"Answer key", "Gabarito"},
	}[v]
	return w.in(lang)
}

// jsonQuestion is a question as --format json prints it.
type jsonQuestion struct {
	Question
	Reply string `json:"reply,omitempty"`
	Right *bool  `json:"right,omitempty"`
}

// writeJSON prints one object per question; with right, the reply checked.
func writeJSON(w io.Writer, qs []Question, right *bool) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for _, q := range qs {
		jq := jsonQuestion{Question: q, Right: right}
		if err := enc.Encode(jq); err != nil {
			return err
		}
	}
	return nil
}

// writeText prints the questions, each with the command that checks a reply.
func writeText(w io.Writer, qs []Question, o options) {
	for i, q := range qs {
		if i > 0 {
			fmt.Fprintln(w)
		}
		if len(qs) > 1 {
			fmt.Fprintf(w, "%d. ", i+1)
		}
		fmt.Fprintf(w, "%s\n%s %s --answer '...'\n", q.Text, word(o.lang, "reply"), q.Command())
	}
}

// writeSheet prints a sheet for a class: the numbered questions, then the
// answer key with each answer's explanation and replay.
func writeSheet(w io.Writer, qs []Question, o options) {
	fmt.Fprintf(w, "## %s\n\n", word(o.lang, "questions"))
	for i, q := range qs {
		fmt.Fprintf(w, "%d. %s\n", i+1, q.Text)
	}
	fmt.Fprintf(w, "\n## %s\n\n", word(o.lang, "key"))
	for i, q := range qs {
		fmt.Fprintf(w, "%d. **%s** %s `%s`\n", i+1, q.Answer, q.Explanation, q.Replay)
	}
}
