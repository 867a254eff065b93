package quorum

import (
	"slices"

	"ringlab/engine/node"
)

func (n *Node) stepParticipant(in node.Input, out *node.Output) {
	switch in.Kind {
	case node.InCmd:
		switch in.Cmd {
		case node.CmdRequest:
			if n.state != StateReleased {
				n.pending++
				out.Note("request queued behind the current one (%d waiting)", n.pending)
				return
			}
			n.ask(out)
		case node.CmdRelease:
			n.onRelease(out)
		case node.CmdRecover:
			out.Note("participant recovered with amnesia")
		}
	case node.InMsg:
		m, ok := in.Msg.(Msg)
		if !ok || m.Kind != MsgResponseOK || in.From < 1 || in.From > n.cfg.Coordinators {
			out.Note("participant: unexpected %v ignored", in.Msg)
			return
		}
		n.onOK(in.From, m, out)
	case node.InTick:
		switch {
		case in.Timer == timerRetry && n.state == StateWanted && !n.backoff:
			n.giveUp(out)
		case in.Timer == timerBackoff && n.backoff:
			n.backoff = false
			n.ask(out)
		}
	}
}

// ask sends a new request to every coordinator.
func (n *Node) ask(out *node.Output) {
	n.seq++
	n.oks = make([]bool, len(n.oks))
	n.nOK = 0
	if n.state != StateWanted {
		n.state = StateWanted
		out.State(StateWanted)
	}
	n.toAll(MsgRequestAccess, out)
	if n.cfg.RetryTimeout > 0 {
		out.SetTimer(timerRetry, n.cfg.RetryTimeout)
	}
}

func (n *Node) onOK(from int, m Msg, out *node.Output) {
	current := m.Seq == n.seq && !n.backoff
	switch {
	case current && n.state == StateWanted:
		if !n.oks[from] {
			n.oks = slices.Clone(n.oks)
			n.oks[from] = true
			n.nOK++
		}
		if n.nOK >= n.cfg.M {
			if n.cfg.RetryTimeout > 0 {
				out.StopTimer(timerRetry)
			}
			n.state = StateHeld
			out.State(StateHeld)
			out.EnterCS()
		}
	case current && n.state == StateHeld:
		n.oks = slices.Clone(n.oks)
		n.oks[from] = true // a vote beyond m; released with the others
	default:
		out.Note("stale ResponseOK %d.%d: freeing its coordinator", m.Part, m.Seq)
		out.Send(from, Msg{Kind: MsgRequestFree, Part: n.cfg.Index, Seq: m.Seq})
	}
}

func (n *Node) onRelease(out *node.Output) {
	if n.state != StateHeld {
		out.Note("release ignored: not in the CS (state %s)", n.state)
		return
	}
	out.ExitCS()
	n.state = StateReleased
	out.State(StateReleased)
	n.toAll(MsgRequestFree, out)
	if n.pending > 0 {
		n.pending--
		n.ask(out)
	}
}

// giveUp releases every vote of a request that found no quorum in time and
// asks again after a backoff that grows with the participant's number, so
// participants that split the votes retry one at a time.
func (n *Node) giveUp(out *node.Output) {
	k := int64(n.cfg.Index - n.cfg.Coordinators)
	out.Note("no quorum for request %d after %d ticks (%d of %d OKs): releasing, retrying in %d",
		n.seq, n.cfg.RetryTimeout, n.nOK, n.cfg.M, k*n.cfg.RetryTimeout)
	n.toAll(MsgRequestFree, out)
	n.backoff = true
	out.SetTimer(timerBackoff, k*n.cfg.RetryTimeout)
}

func (n *Node) toAll(k Kind, out *node.Output) {
	for c := 1; c <= n.cfg.Coordinators; c++ {
		out.Send(c, Msg{Kind: k, Part: n.cfg.Index, Seq: n.seq})
	}
}
