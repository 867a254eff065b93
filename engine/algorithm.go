package engine

import (
	"fmt"
	"slices"

	"ringlab/engine/node"
)

// Algorithm describes one algorithm once, for every tool: engine/cli makes
// its commands (a run, `explore`, `check`, one node per process) from it,
// and engine/run, engine/sim's explorer and engine/statespace run and judge
// the Systems its Build makes. Name and Build are required; the rest is
// optional.
type Algorithm struct {
	Name        string // the subcommand: "ricart-agrawala"
	Usage       string // one line for the command list
	Description string // a paragraph for --help
	Example     string // a command line that shows it off
	// Params are the algorithm's typed parameters, with their defaults;
	// the command line offers each as a flag.
	Params []Param
	// Build makes a fresh System from the parameters (every Param present,
	// each of its Default's type) for a run in env. An error is the
	// user's: a bad combination of parameters, reported as bad input.
	Build func(p Params, env Env) (System, error)
	// ExploreExample and CheckExample, if set, are command lines that
	// show off `AREA explore NAME` and `AREA check NAME`.
	ExploreExample, CheckExample string
	// Pin, if set, names the parameters (and their values, as flag text)
	// that fix what Build drew from env.Seed (a random layout of ids):
	// explore gives them to every schedule it tries and writes them in
	// its replay, so that all its schedules run on one layout.
	Pin func(p Params, env Env) map[string]string
	// Exhaustive, if set, is the algorithm as the exhaustive checker takes
	// it, where that differs from a run: its description, parameters of
	// its own (smaller defaults, a bound that makes the space finite) and
	// a Build of the checked System. Its name and examples are the
	// algorithm's.
	Exhaustive *Algorithm
}

// ForCheck returns the algorithm as the exhaustive checker takes it: a
// itself, or a.Exhaustive under a's name and with a's examples.
func (a Algorithm) ForCheck() Algorithm {
	if a.Exhaustive == nil {
		return a
	}
	x := *a.Exhaustive
	x.Name, x.Example, x.ExploreExample, x.CheckExample = a.Name, a.Example, a.ExploreExample, a.CheckExample
	return x
}

// Env is what Build may know of the run it builds for.
type Env struct {
	// Seed is the run's seed: a random layout of ids draws from it, so
	// that --seed repeats the whole run.
	Seed uint64
	// Runtime names the runtime: "sim", "live" or "amqp".
	Runtime string
	// MaxDelay is the longest a message may take on the simulator, in
	// ticks: an algorithm whose timeouts must outwait a round trip scales
	// them by it.
	MaxDelay int64
	// Faults are the crashes and restarts the user scripted (--crash,
	// --restart), which the runner adds to the System's script: an
	// algorithm that models a failure detector reacts to them.
	Faults []node.Action
	// MaxDepth is an exhaustive check's bound on a path's length (0:
	// none): a System whose space is infinite needs this or a state
	// constraint of its own (System.Within).
	MaxDepth int
	// MaxFlight is an exhaustive check's state constraint on the network
	// (--max-flight: at most this many messages in flight on one link; 0:
	// none): a System whose space is infinite only by what piles up on
	// links is finite under it.
	MaxFlight int
	// AnyOrder says an exhaustive check delivers a link's messages in any
	// order (--policy random), where it does not shift the clocks nodes
	// declare (node.Values): a System whose space is finite only under the shift
	// needs a bound then.
	AnyOrder bool
}

// Param is one typed parameter: its Default's type (int, int64, uint64,
// bool, string) is the parameter's type.
type Param struct {
	Name    string // the flag's name: "nodes", "grant-timeout"
	Usage   string // one line for --help
	Default any    // the value when the user gives none; its type is the parameter's
	// DefaultText shows the default in --help when it is computed ("n/2+1").
	DefaultText string
	// Check, if set, validates a value the user gave; its error names no
	// flag (the caller adds it).
	Check func(v any) error
}

// Params are the values of an Algorithm's parameters, and which of them
// the user gave.
type Params struct {
	values map[string]any
	given  map[string]bool
}

// Defaults returns the parameters at their default values, none given.
func (a Algorithm) Defaults() Params {
	p := Params{values: map[string]any{}, given: map[string]bool{}}
	for _, q := range a.Params {
		p.values[q.Name] = q.Default
	}
	return p
}

// Give sets parameter name to v, as the user gave it. v must have the
// type of the parameter's Default.
func (p Params) Give(name string, v any) error {
	old, ok := p.values[name]
	switch {
	case !ok:
		return fmt.Errorf("no parameter %q", name)
	case fmt.Sprintf("%T", old) != fmt.Sprintf("%T", v):
		return fmt.Errorf("parameter %q is %T, not %T", name, old, v)
	}
	p.values[name], p.given[name] = v, true
	return nil
}

// Given reports whether the user gave parameter name (rather than leaving
// its default): an algorithm whose parameters exclude each other asks.
func (p Params) Given(name string) bool { return p.given[name] }

// Param returns the parameter named name, and whether a has one.
func (a Algorithm) Param(name string) (Param, bool) {
	i := slices.IndexFunc(a.Params, func(q Param) bool { return q.Name == name })
	if i < 0 {
		return Param{}, false
	}
	return a.Params[i], true
}

// Int returns the int parameter name; it panics if there is none, which is
// a mistake in the Algorithm, not in the input.
func (p Params) Int(name string) int { return get[int](p, name) }

// Int64 returns the int64 parameter name.
func (p Params) Int64(name string) int64 { return get[int64](p, name) }

// Uint64 returns the uint64 parameter name.
func (p Params) Uint64(name string) uint64 { return get[uint64](p, name) }

// Bool returns the bool parameter name.
func (p Params) Bool(name string) bool { return get[bool](p, name) }

// String returns the string parameter name.
func (p Params) String(name string) string { return get[string](p, name) }

func get[T any](p Params, name string) T {
	v, ok := p.values[name].(T)
	if !ok {
		var zero T
		panic(fmt.Sprintf("engine: parameter %q is %T, not %T", name, p.values[name], zero))
	}
	return v
}

// Find returns the algorithm named name in list, and whether there is one.
func Find(list []Algorithm, name string) (Algorithm, bool) {
	i := slices.IndexFunc(list, func(a Algorithm) bool { return a.Name == name })
	if i < 0 {
		return Algorithm{}, false
	}
	return list[i], true
}
