package cli

import (
	"context"
	"slices"
	"strings"
	"time"

	"ringlab/engine"
	"ringlab/engine/check"
	"ringlab/engine/cliutil"
	"ringlab/engine/lang"
	"ringlab/engine/statespace"
)

// A check's exit 0 means that every property asked for (--property, or
// the run's whole set) was judged over every state the parameters allow.
// This file holds what decides it: judgeable refuses, before a search, a
// check whose flags make a judgement impossible (exit 2); owedCycle looks
// for the counterexample to termination of a workload that ends but whose
// runs do not; verdict writes the last line, "proved: ..." or "not
// proved: ..." with what was left unjudged (exit 4).

// askedProperties are the properties a check of sc judges: the one
// --property names, or all of them.
func askedProperties(sc statespace.Config) []check.Property {
	cs := []check.Property{check.Termination{}}
	if sc.Checks != nil {
		cs = sc.Checks()
	}
	if sc.Only == "" {
		return cs
	}
	return slices.DeleteFunc(cs, func(p check.Property) bool { return p.ID() != sc.Only })
}

// isPromise reports whether p makes a promise the liveness pass judges
// over cycles (check.Eventually).
func isPromise(p check.Property) bool {
	_, ok := p.(check.Eventually)
	return ok
}

// judgeable refuses, before the search, a check that could not judge what
// it is asked: --liveness where no property asked for makes a promise
// (nothing would be judged over cycles), and --property naming one judged
// only where a run ends when the workload never ends (sys.Endless), unless
// --liveness judges it over cycles. The error is a usage error (exit 2)
// naming the flag that would make the judgement possible.
func judgeable(sys engine.System, sc statespace.Config) error {
	asked := askedProperties(sc)
	promise := slices.ContainsFunc(asked, isPromise)
	if sc.Liveness && !promise {
		what := "no property of " + sys.Name + " says"
		if sc.Only != "" {
			what = "--property " + asFlag(sc.Only) + " does not say"
		}
		return cliutil.FlagUsagef("liveness", "--liveness: %s what must eventually happen (a promise, check.Eventually), so nothing would be judged over cycles: leave --liveness out", what)
	}
	if sys.Endless != "" && sc.Only == check.IDTermination {
		return cliutil.FlagUsagef("property", "--property termination: %s, so there is no termination to judge", sys.Endless)
	}
	if sys.Endless == "" || sc.Only == "" || !slices.Contains(statespace.AtEnds(sc), sc.Only) {
		return nil
	}
	switch {
	case !promise:
		return cliutil.FlagUsagef("property", "--property %s is judged only where a run ends, and %s: nothing could judge it", asFlag(sc.Only), sys.Endless)
	case !sc.Liveness:
		return cliutil.FlagUsagef("property", "--property %s is judged where a run ends, and %s: add --liveness to judge it over every fair cycle", asFlag(sc.Only), sys.Endless)
	}
	return nil
}

// withoutTermination is sys and sc without the termination property, for
// a workload without end (sys.Endless): no run of it ends, so a check
// asks for none, and the liveness pass does not take each of its cycles
// for a run that fails to end.
func withoutTermination(sys engine.System, sc statespace.Config) (engine.System, statespace.Config) {
	drop := func(cs []check.Property) []check.Property {
		return slices.DeleteFunc(slices.Clone(cs), func(p check.Property) bool { return p.ID() == check.IDTermination })
	}
	sys.Properties = drop(sys.Properties)
	if checks := sc.Checks; checks != nil {
		sc.Checks = func() []check.Property { return drop(checks()) }
	}
	return sys, sc
}

// asksTermination reports whether termination is among the properties a
// check of sc asks for.
func asksTermination(sc statespace.Config) bool {
	return slices.ContainsFunc(askedProperties(sc), func(p check.Property) bool { return p.ID() == check.IDTermination })
}

// asFlag is how --property names id: "no starvation" is no-starvation.
func asFlag(id check.ID) string { return strings.ReplaceAll(string(id), " ", "-") }

// seeksCycles reports whether a check of sys under sc must look for runs
// that never end: a workload that ends (no sys.Endless), and neither
// --liveness (which keeps the graph anyway) nor --goal. The search then
// counts the cycles (statespace.Config.Cycles).
func seeksCycles(sys engine.System, sc statespace.Config) bool {
	return !sc.Liveness && sc.Goal == nil && sys.Endless == ""
}

// owedCycle is the counterexample to termination of a workload that ends
// (seeksCycles) when the search res, exhausted without a violation, may
// hold a run that never ends: it found no state where a run ends, or a
// cycle (res.Cyclic; with none every run ends, and the check costs the
// graph's steps kept and its components counted, no second search). The
// liveness pass then searches again,
// without the reduction, for a fair cycle on which a promise stays owed
// for ever (the work a node asked for never done). It reports whether it
// searched; the lasso is the second result's, nil if every fair cycle
// keeps its promises.
func owedCycle(ctx context.Context, sys engine.System, sc statespace.Config, res statespace.Result) (statespace.Config, statespace.Result, bool, error) {
	if !seeksCycles(sys, sc) || !res.Exhausted || res.Violation != nil || res.Terminal > 0 && res.Cyclic == 0 {
		return sc, statespace.Result{}, false, nil
	}
	lsc := sc
	lsc.Liveness, lsc.POR, lsc.Symmetry, lsc.Progress, lsc.Cycles = true, false, nil, nil, false
	if sc.Timeout > 0 {
		lsc.Timeout = max(sc.Timeout-res.Elapsed, time.Millisecond)
	}
	lres, err := statespace.Search(ctx, lsc)
	return lsc, lres, true, err
}

// verdict is a check's last line, given the search's result (no
// violation, no lasso) and cyc, the liveness pass's when owedCycle
// searched the cycles (else nil): "proved:
// ..." when every property asked for was judged over every state the
// parameters allow, else "not proved: ..." and the list of what was left
// unjudged, each in words.
func verdict(l lang.Lang, sys engine.System, sc statespace.Config, res statespace.Result, live *liveReport, cyc *statespace.Result) (string, []string) {
	var not []string
	switch res.Stop {
	case "":
	case "interrupted":
		not = append(not, l.T("check.interrupted", res.Distinct, res.Covered))
	default:
		not = append(not, l.T("check.stoppedAt", res.Stop, res.Distinct, res.Covered))
	}
	if res.Beyond > 0 {
		not = append(not, l.T("check.beyond", res.Beyond, sc.Bound))
	}
	overCycles := live != nil && live.Judged
	ends := res.AtEnds
	if overCycles {
		ends = slices.DeleteFunc(slices.Clone(ends), func(id check.ID) bool { return slices.Contains(live.Properties, string(id)) })
	}
	names := func(ids []check.ID) string {
		s := make([]string, len(ids))
		for k, id := range ids {
			s[k] = string(id)
		}
		return l.Properties(s)
	}
	switch {
	case sys.Endless != "" && len(ends) > 0:
		hint := ""
		if !sc.Liveness && slices.ContainsFunc(askedProperties(sc), isPromise) {
			hint = l.T("check.endlessHint")
		}
		not = append(not, l.T("check.endless", names(ends), sys.Endless, hint))
	case sys.Endless == "" && res.Exhausted && res.Terminal == 0 && (len(ends) > 0 || asksTermination(sc)):
		why := l.T("check.noRunEnds")
		if res.Beyond > 0 {
			why = l.T("check.noneWithin")
		}
		if cyc != nil && slices.ContainsFunc(askedProperties(sc), isPromise) {
			why += l.T("check.promisesKept")
		}
		if len(ends) > 0 {
			why += l.T("check.soNotJudged", names(ends))
		}
		not = append(not, why)
	case sys.Endless == "" && res.Exhausted && cyclic(sc, res, cyc) > 0 && (len(ends) > 0 || asksTermination(sc)):
		why := l.T("check.neverEnd", cyclic(sc, res, cyc))
		if slices.ContainsFunc(askedProperties(sc), isPromise) {
			why += l.T("check.keptOnThem")
		}
		if len(ends) > 0 {
			why += l.T("check.notJudgedThere", names(ends))
		}
		not = append(not, why)
	}
	if len(not) > 0 {
		return l.T("check.notProved", strings.Join(not, "; ")), not
	}
	var ids []check.ID
	for _, p := range askedProperties(sc) {
		if !slices.Contains(ids, p.ID()) {
			ids = append(ids, p.ID())
		}
	}
	left := ""
	if sys.Endless != "" && sc.Only == "" {
		left = l.T("check.notAsked", sys.Endless) // withoutTermination
	}
	over := ""
	if overCycles {
		over = l.T("check.overCycles")
	}
	return l.T("check.proved", names(ids), res.Distinct, over, left), nil
}

// cyclic is how many strongly connected components of the state graph
// hold a fair cycle (one a run can keep to for ever), as the liveness pass
// counted them (under --liveness, or cyc, owedCycle's); 0 when none ran.
func cyclic(sc statespace.Config, res statespace.Result, cyc *statespace.Result) int64 {
	switch {
	case cyc != nil:
		return cyc.Live.Fair
	case sc.Liveness:
		return res.Live.Fair
	}
	return 0
}
