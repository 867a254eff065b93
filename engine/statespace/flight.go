package statespace

// flightWithin reports whether every link of net (sorted by link, as a
// state's is) holds at most most messages: Config.MaxFlight, a state
// constraint on the network. A cycle inside it is a cycle of the
// unconstrained system, and the liveness pass judges its fairness against
// every step enabled in its states, those that leave the constraint too:
// a lasso found within the bound is a lasso of the unbounded system. A ✓
// says nothing of the schedules that pass the bound.
func flightWithin(net []item, most int) bool {
	run := 0
	for k, it := range net {
		if k > 0 && net[k-1].link == it.link {
			run++
		} else {
			run = 1
		}
		if run > most {
			return false
		}
	}
	return true
}
