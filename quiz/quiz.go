// Package quiz is the `ringlab quiz` command: questions on the chapter's
// topics whose answers the lab computes. Each kind of question draws its
// parameters from a seed, runs or checks the lab in-process (the
// simulator, the exhaustive checker, the quorum formula, a small model of
// the exercise) to find the answer, and gives a replay: a ringlab command
// line whose output shows that answer. No answer is typed by hand.
package quiz

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
)

// Langs are the languages a question is written in: English and
// Brazilian Portuguese.
var Langs = []string{"en", "pt"}

// Question is one question, its answer and how to see it in the lab.
type Question struct {
	Kind  string `json:"kind"`  // the kind of question: "chang-roberts-messages"
	Topic string `json:"topic"` // the chapter's topic: "election"
	Seed  uint64 `json:"seed"`  // the seed it was drawn from: `ringlab quiz --seed` repeats it
	Lang  string `json:"lang"`  // the language of Text and Explanation
	// Text is the question.
	Text string `json:"question"`
	// Answer is the answer in its canonical form.
	Answer string `json:"answer"`
	// Explanation says why Answer is right and where the replay shows it.
	Explanation string `json:"explanation"`
	// Replay is a ringlab command line whose output shows the answer.
	Replay string `json:"replay"`
	// Evidence is a regular expression that the replay's output (standard
	// output and standard error together) matches: where it shows the answer.
	Evidence string `json:"-"`
	// ReplayExit is the replay's exit code (3 for a schedule that breaks
	// mutual exclusion, 4 for a deadlock the watchdog caught).
	ReplayExit int `json:"-"`

	form   form   // how a reply is compared with Answer
	filter string // the --topic it was drawn under ("" for any)
}

// Command is the `ringlab quiz` command line that asks q again.
func (q Question) Command() string {
	line := fmt.Sprintf("ringlab quiz --seed %d", q.Seed)
	if q.filter != "" {
		line += " --topic " + q.filter
	}
	if q.Lang != "en" {
		line += " --lang " + q.Lang
	}
	return line
}

// both is a text in English and in Brazilian Portuguese.
type both struct{ en, pt string }

// in returns the text in lang.
func (b both) in(lang string) string {
	if lang == "pt" {
		return b.pt
	}
	return b.en
}

// item is what a kind makes from its draw: the question in both
// languages, the computed answer, and its replay.
type item struct {
	text, explanation both
	answer            string
	form              form
	replay            string
	evidence          string
	replayExit        int
}

// kind is one kind of question: its name, its topic, and make, which draws
// the parameters from r and computes the answer in the lab.
type kind struct {
	name, topic string
	make        func(ctx context.Context, r *rand.Rand) (item, error)
}

// kinds lists every kind of question, grouped by topic.
func kinds() []kind {
	return []kind{
		{"chang-roberts-messages", "election", changRobertsMessages},
		{"ring-messages", "election", ringMessages},
		{"bully-leader", "election", bullyLeader},
		{"lamport-clock", "clocks", lamportClock},
		{"mutex-path", "mutex", mutexPath},
		{"messages-per-entry", "mutex", perEntry},
		{"quorum-probability", "mutex", quorumProbability},
		{"two-locks", "concurrency", twoLocks},
	}
}

// Topics lists the topics, in the order of the chapter, each once.
func Topics() []string {
	var ts []string
	for _, k := range kinds() {
		if !slices.Contains(ts, k.topic) {
			ts = append(ts, k.topic)
		}
	}
	return ts
}

// Kinds lists the names of the kinds of question.
func Kinds() []string {
	var ns []string
	for _, k := range kinds() {
		ns = append(ns, k.name)
	}
	return ns
}

// Make draws the question of seed on topic (a topic, a kind's name, or ""
// for any) in lang and computes its answer in the lab.
func Make(ctx context.Context, topic string, seed uint64, lang string) (Question, error) {
	var pool []kind
	for _, k := range kinds() {
		if topic == "" || k.topic == topic || k.name == topic {
			pool = append(pool, k)
		}
	}
	if len(pool) == 0 {
		return Question{}, fmt.Errorf("unknown topic %q", topic)
	}
	r := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	k := pool[r.IntN(len(pool))]
	it, err := k.make(ctx, r)
	if err != nil {
		return Question{}, fmt.Errorf("%s, seed %d: %w", k.name, seed, err)
	}
	if it.form == formYesNo && lang == "pt" {
		it.answer = map[string]string{"yes": "sim", "no": "não"}[it.answer]
	}
	return Question{
		Kind: k.name, Topic: k.topic, Seed: seed, Lang: lang,
		Text: it.text.in(lang), Answer: it.answer, Explanation: it.explanation.in(lang),
		Replay: "ringlab " + it.replay, Evidence: it.evidence, ReplayExit: it.replayExit,
		form: it.form, filter: topic,
	}, nil
}

// Right reports whether reply answers q (see Normalize for the forms a
// reply may take).
func (q Question) Right(reply string) bool { return q.form.same(reply, q.Answer) }
