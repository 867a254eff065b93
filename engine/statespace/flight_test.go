package statespace

import "testing"

// flightWithin counts the messages of each link of a state's net (sorted
// by link) against the bound.
func TestFlightWithin(t *testing.T) {
	net := []item{{link: 1}, {link: 1}, {link: 2}, {link: 5}, {link: 5}, {link: 5}}
	for most, want := range []bool{false, false, false, true, true} {
		if most == 0 {
			continue
		}
		if got := flightWithin(net, most); got != want {
			t.Errorf("at most %d on a link: %v, want %v", most, got, want)
		}
	}
	if !flightWithin(nil, 1) {
		t.Error("an empty network is within any bound")
	}
}
