package amqp

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strings"
	"time"

	amqp "github.com/rabbitmq/amqp091-go"
	"golang.org/x/sync/errgroup"
)

// DefaultURL is the broker a fresh Debian rabbitmq-server listens on.
const DefaultURL = "amqp://guest:guest@localhost:5672/"

// RingExchange is the ring election's exchange, with the names its
// assignment gives: a direct exchange, not durable, queues node.1 ..
// node.N bound with their own names as routing keys.
const RingExchange = "leader.election.ring"

// Names are the broker objects of one run: a direct exchange, one queue
// per node bound with its own name as routing key, and a control exchange
// for the reports a multi-process run sends to its watcher.
type Names struct {
	Exchange string // direct, not durable
	Prefix   string // node i's queue and routing key are Prefix + "node.i"
}

// RingNames is the ring election's topology: exchange leader.election.ring
// and queues node.1 .. node.N.
func RingNames() Names { return Names{Exchange: RingExchange} }

// RunNames are the names of one run of another algorithm: everything is
// prefixed by the algorithm and a run id, so runs never collide.
func RunNames(algorithm, run string) Names {
	p := "ringlab." + strings.ReplaceAll(algorithm, " ", "-") + "." + run
	return Names{Exchange: p, Prefix: p + "."}
}

// Queue is node i's queue; it is also its routing key.
func (n Names) Queue(i int) string { return fmt.Sprintf("%snode.%d", n.Prefix, i) }

// State is node i's state queue (multi-process runs): it holds the last
// transport counters the node wrote, for a restarted process.
func (n Names) State(i int) string { return n.Exchange + ".state." + fmt.Sprint(i) }

// Control is the exchange of the reports and of the end of a run.
func (n Names) Control() string { return n.Exchange + ".control" }

// End is the queue that keeps the end of a multi-process run once the
// watcher has announced it, for a process that was not listening then
// (it had lost its connection); `ringlab amqp setup` empties it.
func (n Names) End() string { return n.Exchange + ".end" }

// Lock is the queue a one-process run holds exclusively for its whole
// run; node processes hold it for a moment while they check Run.
func (n Names) Lock() string { return n.Exchange + ".lock" }

// NodeLock is the queue node i's process holds exclusively for its
// whole run: one process per node.
func (n Names) NodeLock(i int) string { return n.Exchange + ".lock." + fmt.Sprint(i) }

// Run is the queue that holds the description of the multi-process run
// that uses these names, from its first process until the watcher ends
// the run (or `ringlab amqp setup` empties it).
func (n Names) Run() string { return n.Exchange + ".run" }

// Monitor is the queue the watching process reads reports from.
func (n Names) Monitor() string { return n.Exchange + ".monitor" }

// ErrUnreachable wraps every failure to reach the broker.
var ErrUnreachable = errors.New("RabbitMQ broker unreachable")

// ErrHeld wraps the refusal of a run whose broker names another run holds.
var ErrHeld = errors.New("another run holds these broker names")

// heldHint is what a refused run can do.
const heldHint = "wait for it to end, or run this one in a virtual host of its own (--url amqp://HOST/VHOST)"

// hold declares the queues qs exclusive to connection c: they are the
// run's hold on its names, released when c closes, however the process
// ends. Another connection's hold on one of them fails it with ErrHeld.
func hold(c *amqp.Connection, names Names, qs []string) error {
	taken, err := tryHold(c, qs)
	if err == nil && taken != "" {
		err = fmt.Errorf("%w (%s; %s is taken): %s", ErrHeld, names.Exchange, taken, heldHint)
	}
	return err
}

// tryHold declares the queues qs exclusive to connection c, in order,
// and returns the first that another connection holds ("" if none). The
// queues before it stay held: declaring them again on c is harmless.
func tryHold(c *amqp.Connection, qs []string) (taken string, err error) {
	ch, err := c.Channel()
	if err != nil {
		return "", fmt.Errorf("opening a channel: %w", err)
	}
	for _, q := range qs {
		if _, err := ch.QueueDeclare(q, false, false, true, false, nil); err != nil {
			if isCode(err, amqp.ResourceLocked) {
				return q, nil // the refusal closed the channel
			}
			return "", fmt.Errorf("declaring queue %s: %w", q, err)
		}
	}
	return "", ch.Close()
}

func isCode(err error, code int) bool {
	var ae *amqp.Error
	return errors.As(err, &ae) && ae.Code == code
}

// ErrSettings wraps the refusal of a declaration whose settings differ
// from those of an existing queue or exchange of the same name.
var ErrSettings = errors.New("the broker has these names with other settings")

// ErrInUse wraps the refusal of a one-process run on a standing topology
// that node processes, or another program, consume at the moment.
var ErrInUse = errors.New("these broker names are in use")

// inequivalent maps the refusal of a declaration whose settings differ
// from those of an existing queue or exchange: a one-process run's
// queues expire, the standing topology's do not, and another program may
// declare the names its own way.
func inequivalent(err error, what string) error {
	if isCode(err, amqp.PreconditionFailed) {
		return fmt.Errorf("%w: %s exists with other settings than this run declares (%v): a one-process run (its queues expire %v after it ends) or another program declared it; "+
			"delete it with `ringlab amqp teardown`, or run this one in a virtual host of its own (--url amqp://HOST/VHOST)", ErrSettings, what, err, queueExpires)
	}
	return err
}

// stands reports whether node 1's queue exists without an expiry: the
// standing topology of `ringlab amqp setup` and node processes, or the
// specification's queues as another program declared them. A one-process
// run then uses the names as they are (declaring the missing ones the
// same way) and leaves them; otherwise its declaration makes node 1's
// queue, which expires.
func stands(open opener, names Names) (bool, error) {
	ch, err := open()
	if err != nil {
		return false, fmt.Errorf("opening a channel: %w", err)
	}
	_, err = ch.QueueDeclare(names.Queue(1), false, false, false, false, expiring())
	if isCode(err, amqp.PreconditionFailed) {
		return true, nil // the refusal closed the channel
	}
	if err != nil {
		return false, fmt.Errorf("declaring queue %s: %w", names.Queue(1), err)
	}
	return false, ch.Close()
}

// expiring is the arguments of a one-process run's own queue.
func expiring() amqp.Table { return amqp.Table{"x-expires": int32(queueExpires / time.Millisecond)} }

// queueExpires bounds how long the broker keeps a one-process run's
// queue once nothing consumes it (after a killed process): longer than
// ReconnectWithin, so a run that reconnects finds its queues.
const queueExpires = 60 * time.Second

// heartbeat is the AMQP heartbeat interval a connection asks for; the
// broker takes a connection whose peer missed two heartbeats as lost.
const heartbeat = 10 * time.Second

// DialTimeout bounds connecting to the broker, the AMQP handshake included.
const DialTimeout = 4 * time.Second

// dial connects to url within DialTimeout, wrapping the network connection
// with wrap if it is set (tests sever it). The TCP connect honours ctx; the
// deadline set on the connection bounds the AMQP handshake too (the library
// clears it once the connection is open).
func dial(ctx context.Context, url string, wrap func(net.Conn) net.Conn) (*amqp.Connection, error) {
	ctx, cancel := context.WithTimeout(ctx, DialTimeout)
	defer cancel()
	c, err := amqp.DialConfig(url, amqp.Config{
		Heartbeat: heartbeat,
		Locale:    "en_US",
		Dial: func(network, addr string) (net.Conn, error) {
			d := net.Dialer{}
			conn, err := d.DialContext(ctx, network, addr)
			if err != nil {
				return nil, err
			}
			if dl, ok := ctx.Deadline(); ok {
				_ = conn.SetDeadline(dl)
			}
			if wrap != nil {
				conn = wrap(conn)
			}
			return conn, nil
		},
	})
	if err != nil {
		if ctx.Err() == context.DeadlineExceeded {
			return nil, fmt.Errorf("%w at %s: no answer within %v (%v)", ErrUnreachable, Redact(url), DialTimeout, err)
		}
		return nil, fmt.Errorf("%w at %s: %v", ErrUnreachable, Redact(url), err)
	}
	return c, nil
}

// declare declares the topology of n nodes: the exchange, every node's
// queue and binding, and, with control, the control exchange, the monitor
// queue and the state queues. Declaring is idempotent, so every process
// declares all of it: a message to a node whose process has not started
// yet waits in its queue. The queues are declared on several channels at
// once (a broker round trip each, a thousand of them took seconds).
//
// With control, the topology is a multi-process run's, which outlives its
// processes; without, it is one process's, and its queues expire
// (queueExpires) once nothing consumes them, should the process die
// before deleting them, unless the topology stands already (see stands):
// then no queue expires and one that has a consumer fails the run with
// ErrInUse before anything is emptied. ctx stops declaring between two
// queues.
func declare(ctx context.Context, open opener, names Names, n int, control, standing bool) error {
	var args amqp.Table
	if !control && !standing {
		args = expiring()
	}
	err := withOne(open, func(ch *amqp.Channel) error {
		if err := ch.ExchangeDeclare(names.Exchange, amqp.ExchangeDirect, false, false, false, false, nil); err != nil {
			return inequivalent(fmt.Errorf("declaring exchange %s: %w", names.Exchange, err), "exchange "+names.Exchange)
		}
		if !control {
			return nil
		}
		if err := ch.ExchangeDeclare(names.Control(), amqp.ExchangeDirect, false, false, false, false, nil); err != nil {
			return fmt.Errorf("declaring exchange %s: %w", names.Control(), err)
		}
		if _, err := ch.QueueDeclare(names.Monitor(), false, false, false, false, nil); err != nil {
			return fmt.Errorf("declaring queue %s: %w", names.Monitor(), err)
		}
		if err := ch.QueueBind(names.Monitor(), keyReport, names.Control(), false, nil); err != nil {
			return fmt.Errorf("binding queue %s: %w", names.Monitor(), err)
		}
		if _, err := ch.QueueDeclare(names.End(), false, false, false, false, amqp.Table{"x-max-length": int32(1)}); err != nil {
			return fmt.Errorf("declaring queue %s: %w", names.End(), err)
		}
		if err := ch.QueueBind(names.End(), keyEnd, names.Control(), false, nil); err != nil {
			return fmt.Errorf("binding queue %s: %w", names.End(), err)
		}
		if _, err := ch.QueueDeclare(names.Run(), false, false, false, false, amqp.Table{"x-max-length": int32(1)}); err != nil {
			return fmt.Errorf("declaring queue %s: %w", names.Run(), err)
		}
		return nil
	})
	if err != nil {
		return err
	}
	return inChunks(open, n, func(ch *amqp.Channel, i int) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		q := names.Queue(i)
		got, err := ch.QueueDeclare(q, false, false, false, false, args)
		if err != nil {
			return inequivalent(fmt.Errorf("declaring queue %s: %w", q, err), "queue "+q)
		}
		if standing && !control && got.Consumers > 0 {
			return fmt.Errorf("%w: queue %s has %d consumer(s), `ringlab node` processes or another program's nodes: "+
				"wait for them to end, or run this one in a virtual host of its own (--url amqp://HOST/VHOST)", ErrInUse, q, got.Consumers)
		}
		if err := ch.QueueBind(q, q, names.Exchange, false, nil); err != nil {
			return fmt.Errorf("binding queue %s: %w", q, err)
		}
		if control {
			// the newest state only: older ones are dropped from the head
			if _, err := ch.QueueDeclare(names.State(i), false, false, false, false, amqp.Table{"x-max-length": int32(1)}); err != nil {
				return fmt.Errorf("declaring queue %s: %w", names.State(i), err)
			}
		}
		return nil
	})
}

// opener opens a channel.
type opener func() (*amqp.Channel, error)

func withOne(open opener, f func(*amqp.Channel) error) error {
	ch, err := open()
	if err != nil {
		return fmt.Errorf("opening a channel: %w", err)
	}
	defer ch.Close()
	return f(ch)
}

// parallelChannels is how many channels inChunks uses at most.
const parallelChannels = 8

// inChunks calls f for nodes 1..n, spread over up to parallelChannels
// channels, each on a goroutine of its own, and returns the first error.
func inChunks(open opener, n int, f func(ch *amqp.Channel, i int) error) error {
	k := min(parallelChannels, max(n/16, 1))
	var g errgroup.Group
	for w := range k {
		lo, hi := 1+n*w/k, 1+n*(w+1)/k
		g.Go(func() error {
			return withOne(open, func(ch *amqp.Channel) error {
				for i := lo; i < hi; i++ {
					if err := f(ch, i); err != nil {
						return err
					}
				}
				return nil
			})
		})
	}
	return g.Wait()
}

// Routing keys on the control exchange.
const (
	keyReport = "report" // node processes -> the monitor queue
	keyEnd    = "end"    // the watcher -> every node process
)

// Setup declares the topology of n nodes (with its control objects) and
// empties its queues, so a new run starts clean.
func Setup(ctx context.Context, url string, names Names, n int) error {
	conn, err := dial(ctx, url, nil)
	if err != nil {
		return err
	}
	defer conn.Close()
	if err := declare(ctx, conn.Channel, names, n, true, false); err != nil {
		return err
	}
	return purge(ctx, conn.Channel, names, n, true)
}

// purge empties the queues of n nodes (with control, also their state
// queues and the monitor queue).
func purge(ctx context.Context, open opener, names Names, n int, control bool) error {
	if control {
		err := withOne(open, func(ch *amqp.Channel) error {
			for _, q := range []string{names.Monitor(), names.End(), names.Run()} {
				if _, err := ch.QueuePurge(q, false); err != nil {
					return fmt.Errorf("emptying queue %s: %w", q, err)
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	return inChunks(open, n, func(ch *amqp.Channel, i int) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		qs := []string{names.Queue(i)}
		if control {
			qs = append(qs, names.State(i))
		}
		for _, q := range qs {
			if _, err := ch.QueuePurge(q, false); err != nil {
				return fmt.Errorf("emptying queue %s: %w", q, err)
			}
		}
		return nil
	})
}

// Teardown deletes the topology of n nodes — with n = 0, of every node
// whose queue exists, counting from 1 — : the queues, whatever they hold,
// and the exchanges. It returns the number of node queues it deleted.
func Teardown(ctx context.Context, url string, names Names, n int) (int, error) {
	conn, err := dial(ctx, url, nil)
	if err != nil {
		return 0, err
	}
	defer conn.Close()
	if n == 0 {
		for n < 100_000 {
			ch, err := conn.Channel()
			if err != nil {
				return 0, fmt.Errorf("opening a channel: %w", err)
			}
			// a missing queue closes the channel it was asked on
			if _, err := ch.QueueDeclarePassive(names.Queue(n+1), false, false, false, false, nil); err != nil {
				break
			}
			_ = ch.Close()
			n++
		}
	}
	return n, teardown(conn.Channel, names, n, true)
}

// teardown deletes the topology of n nodes (with control, also its
// control objects). The deletions do not wait for the broker's answer
// one by one: a channel's commands are carried out in order, so once the
// last one (which waits) is answered, all are done, in one round trip.
func teardown(open opener, names Names, n int, control bool) error {
	return withOne(open, func(ch *amqp.Channel) error {
		for i := 1; i <= n; i++ {
			qs := []string{names.Queue(i)}
			if control {
				qs = append(qs, names.State(i))
			}
			for _, q := range qs {
				if _, err := ch.QueueDelete(q, false, false, true); err != nil {
					return fmt.Errorf("deleting queue %s: %w", q, err)
				}
			}
		}
		if control {
			for _, q := range []string{names.Monitor(), names.End(), names.Run()} {
				if _, err := ch.QueueDelete(q, false, false, true); err != nil {
					return fmt.Errorf("deleting queue %s: %w", q, err)
				}
			}
			if err := ch.ExchangeDelete(names.Control(), false, true); err != nil {
				return fmt.Errorf("deleting exchange %s: %w", names.Control(), err)
			}
		}
		if err := ch.ExchangeDelete(names.Exchange, false, false); err != nil {
			return fmt.Errorf("deleting exchange %s: %w", names.Exchange, err)
		}
		return nil
	})
}

// withChannel runs f on a fresh channel of a fresh connection.
func withChannel(ctx context.Context, url string, f func(*amqp.Channel) error) error {
	conn, err := dial(ctx, url, nil)
	if err != nil {
		return err
	}
	defer conn.Close()
	ch, err := conn.Channel()
	if err != nil {
		return fmt.Errorf("opening a channel: %w", err)
	}
	defer ch.Close()
	return f(ch)
}

// EnvURL names the environment variable the integration tests read the
// broker's URL from (DefaultURL when unset).
const EnvURL = "RINGLAB_AMQP_URL"

// Probe reports whether a broker answers at url (within DialTimeout).
func Probe(ctx context.Context, url string) error {
	c, err := dial(ctx, url, nil)
	if err != nil {
		return err
	}
	return c.Close()
}
