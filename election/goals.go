package election

import (
	"ringlab/election/changroberts"
	"ringlab/engine"
)

// changRobertsGoals are the states `election check chang-roberts --goal
// NAME` can look for, on top of the check's own messages-on-a-link.
func changRobertsGoals() []engine.Goal {
	return []engine.Goal{
		{Name: "two-participants", Usage: "two nodes are participants at once, neither knowing the leader yet",
			Holds: func(s engine.GlobalState) bool {
				k := 0
				for _, nd := range s.Nodes {
					if c, ok := nd.(*changroberts.Node); ok && c.Status().State == changroberts.StateParticipant {
						k++
					}
				}
				return k >= 2
			}},
	}
}
