package central

import "ringlab/engine/node"

func (n *Node) stepParticipant(in node.Input, out *node.Output) {
	switch in.Kind {
	case node.InCmd:
		switch in.Cmd {
		case node.CmdRequest:
			n.onRequest(out)
		case node.CmdRelease:
			n.onRelease(out)
		case node.CmdRecover:
			out.Note("participant recovered with amnesia")
		}
	case node.InMsg:
		m, _ := in.Msg.(Msg)
		switch {
		case m.Kind == MsgResponseOK && n.state == StateWanted:
			n.setState(StateHeld, out)
			out.EnterCS()
		case m.Kind == MsgResponseFree && n.freeing:
			n.freeing = false
			if n.pending > 0 {
				n.pending--
				n.ask(out)
			}
		default:
			out.Note("participant: %v ignored in state %s", in.Msg, n.state)
		}
	}
}

func (n *Node) onRequest(out *node.Output) {
	if n.state != StateReleased || n.freeing {
		n.pending++
		out.Note("request queued behind the current one (%d waiting)", n.pending)
		return
	}
	n.ask(out)
}

func (n *Node) ask(out *node.Output) {
	n.setState(StateWanted, out)
	out.Send(n.cfg.Coordinator, Msg{Kind: MsgRequestAccess})
}

func (n *Node) onRelease(out *node.Output) {
	if n.state != StateHeld {
		out.Note("release ignored: not in the CS (state %s)", n.state)
		return
	}
	out.ExitCS()
	n.setState(StateReleased, out)
	n.freeing = true
	out.Send(n.cfg.Coordinator, Msg{Kind: MsgRequestFree})
}

func (n *Node) setState(s string, out *node.Output) {
	n.state = s
	out.State(s)
}
