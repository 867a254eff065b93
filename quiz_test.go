package main

import (
	"fmt"
	"io"
	"regexp"
	"strconv"
	"testing"

	rcli "ringlab/engine/cli"
	"ringlab/engine/cliutil"
	"ringlab/quiz"
)

// For 100 seeds, the quiz's own answer given to --answer exits 0, a wrong
// one exits 3 (Check is what --answer runs once the question is drawn; the
// first three seeds go through the whole command line), and the replay,
// run through the whole command tree, exits as the question says and shows
// the answer.
func TestQuizAnswersAndReplays(t *testing.T) {
	kinds := map[string]int{}
	for seed := range uint64(100) {
		q, err := quiz.Make(t.Context(), "", seed, "en")
		if err != nil {
			t.Fatal(err)
		}
		kinds[q.Kind]++
		if err := q.Check(io.Discard, q.Answer, "text"); cliutil.Code(err) != 0 {
			t.Errorf("seed %d: --answer %q: %v", seed, q.Answer, err)
		}
		if err := q.Check(io.Discard, wrong(q.Answer), "json"); cliutil.Code(err) != 3 {
			t.Errorf("seed %d: --answer %q (the answer is %s): exit %d", seed, wrong(q.Answer), q.Answer, cliutil.Code(err))
		}
		if seed < 3 { // the whole command line, flags and lab again, on a few
			s := strconv.FormatUint(seed, 10)
			code1, _, _ := runCLI(t, t.Context(), "quiz", "--seed", s, "--answer", q.Answer)
			code2, _, _ := runCLI(t, t.Context(), "quiz", "--seed", s, "--answer", wrong(q.Answer))
			if code1 != 0 || code2 != 3 {
				t.Errorf("seed %d: ringlab quiz --answer: exit %d for the answer, %d for a wrong one", seed, code1, code2)
			}
		}
		args, err := rcli.SplitCommand(q.Replay[len("ringlab "):])
		if err != nil {
			t.Fatalf("seed %d: replay %q: %v", seed, q.Replay, err)
		}
		code, out, errs := runCLI(t, t.Context(), args...)
		if ok := regexp.MustCompile(q.Evidence).MatchString(out + errs); code != q.ReplayExit || !ok {
			t.Errorf("seed %d (%s): %s exited %d (want %d), shows the answer %s: %v\n%s%s", seed, q.Kind, q.Replay, code, q.ReplayExit, q.Answer, ok, out, errs)
		}
	}
	if len(kinds) != len(quiz.Kinds()) {
		t.Errorf("100 seeds drew %d kinds of %d: %v", len(kinds), len(quiz.Kinds()), kinds)
	}
}

// wrong is a reply that is not answer: the other of yes and no, or another
// number.
func wrong(answer string) string {
	switch answer {
	case "yes", "sim":
		return "no"
	case "no", "não":
		return "yes"
	}
	v, _ := strconv.ParseFloat(answer, 64)
	return fmt.Sprint(2*v + 1)
}
