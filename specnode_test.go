package main

// This file is a node of the ring election written from the
// specification's text alone, as a student's program in another language
// would be: it imports amqp091-go and the standard library, and no ringlab
// package. TestMixedRings runs it beside `ringlab node` processes.

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"time"

	amqp "github.com/rabbitmq/amqp091-go"
)

// specMsg is the specification's message: {"type", "candidate_id",
// "sender_id", "timestamp"}.
type specMsg struct {
	Type        string `json:"type"`
	CandidateID int    `json:"candidate_id"`
	SenderID    int    `json:"sender_id"`
	Timestamp   string `json:"timestamp"`
}

// specNode is one node of the ring: its 1-based index, its id, the ring's
// size, and where the broker's names start (the specification's names are
// exchange leader.election.ring and queues node.1 .. node.N; Prefix comes
// before each of them).
type specNode struct {
	URL, Prefix  string
	Index, N, ID int
	Initiator    bool
	Out          io.Writer
}

// run plays the node until its election ends (rule 5 or 6) or ctx is done.
func (s specNode) run(ctx context.Context) error {
	conn, err := amqp.Dial(s.URL)
	if err != nil {
		return err
	}
	defer conn.Close()
	ch, err := conn.Channel()
	if err != nil {
		return err
	}
	exchange := s.Prefix + "leader.election.ring"
	queue := func(i int) string { return fmt.Sprintf("%snode.%d", s.Prefix, i) }
	if err := ch.ExchangeDeclare(exchange, "direct", false, false, false, false, nil); err != nil {
		return err
	}
	me, next := queue(s.Index), s.Index%s.N+1
	if _, err := ch.QueueDeclare(me, false, false, false, false, nil); err != nil {
		return err
	}
	if err := ch.QueueBind(me, me, exchange, false, nil); err != nil {
		return err
	}
	deliveries, err := ch.Consume(me, "", true, false, false, false, nil)
	if err != nil {
		return err
	}
	say := func(format string, args ...any) {
		fmt.Fprintf(s.Out, "[Node %d] "+format+"\n", append([]any{s.Index}, args...)...)
	}
	send := func(typ string, candidate int) error {
		body, _ := json.Marshal(specMsg{Type: typ, CandidateID: candidate, SenderID: s.ID, Timestamp: time.Now().UTC().Format(time.RFC3339)})
		return ch.PublishWithContext(ctx, exchange, queue(next), false, false, amqp.Publishing{ContentType: "application/json", Body: body})
	}
	state := "ASLEEP"
	if s.Initiator { // rule 1
		state = "CANDIDATE"
		say("ID=%d iniciando eleição", s.ID)
		if err := send("ELECTION", s.ID); err != nil {
			return err
		}
		say("Enviou ELECTION(%d) para Node %d", s.ID, next)
	}
	for {
		var d amqp.Delivery
		select {
		case <-ctx.Done():
			return fmt.Errorf("node %d (%s): %w", s.Index, state, ctx.Err())
		case d = <-deliveries:
		}
		var m specMsg
		if err := json.Unmarshal(d.Body, &m); err != nil {
			return fmt.Errorf("node %d: %q: %w", s.Index, d.Body, err)
		}
		c := m.CandidateID
		switch {
		case m.Type == "ELECTION" && c == s.ID: // rule 4
			say("ID=%d recebeu ELECTION(%d) - próprio ID!", s.ID, c)
			state = "LEADER"
			say("SOU O LÍDER! Enviando ELECTED(%d)", s.ID)
			if err := send("ELECTED", s.ID); err != nil {
				return err
			}
		case m.Type == "ELECTION": // rules 2 and 3
			say("ID=%d recebeu ELECTION(%d)", s.ID, c)
			state = "CANDIDATE"
			c = min(c, s.ID)
			if err := send("ELECTION", c); err != nil {
				return err
			}
			say("Enviou ELECTION(%d) para Node %d", c, next)
		case m.Type == "ELECTED" && c != s.ID: // rule 5
			state = "FOLLOWER"
			say("Reconheço líder ID=%d", c)
			return send("ELECTED", c)
		case m.Type == "ELECTED": // rule 6
			say("Eleição completa!")
			return nil
		default:
			return fmt.Errorf("node %d: unknown message type %q", s.Index, m.Type)
		}
	}
}
