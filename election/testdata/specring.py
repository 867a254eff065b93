"""The ring election of the specification, as its own design builds it:
Python and pika, a direct exchange leader.election.ring, queues node.1 ..
node.N bound by their own names, a JSON body (type, candidate_id,
sender_id, timestamp), and the six rules. All nodes live in one process,
as the design's simulate_ring.py runs them: one BlockingConnection, one
channel, one consumer per queue. A node acknowledges a message after it
has published what the message caused.

With --per-node thread or --per-node process, each node is on its own
instead, with a connection and a channel of its own, as the design's Node
class opens them in start(): a thread per node (one way simulate_ring.py
can run the ring) or a process per node (start_node.py, once per node).
Every node's consumer is ready before node 1 starts, so the time counts
the election, not the start-up.

BenchmarkRingOverRabbitMQ runs it beside ringlab's command, in the same
op, when python3 has pika:

    python3 specring.py URL PREFIX N [--print] [--per-node thread|process]

The ids are N, N-1, ..., 1 and node 1 starts: the worst single initiator,
3N-1 messages. On stdout, with --print, the specification's lines; on
stderr, one line: "elapsed_ns=T messages=M leader=L", T from the first
publish to the end (rule 6).
"""

import datetime
import json
import multiprocessing
import queue as queues
import sys
import threading
import time

import pika


class Ring:
    """What every node knows: the broker, the names, the ids."""

    def __init__(self, url, prefix, n, show):
        self.url, self.prefix, self.n, self.show = url, prefix, n, show
        self.ids = [n - i for i in range(n)]  # node i (1-based) has id ids[i-1]
        self.exchange = prefix + "leader.election.ring"

    def queue(self, i):
        return "%snode.%d" % (self.prefix, i)

    def say(self, line):
        if self.show:
            print(line, flush=True)

    def setup(self, ch):
        """setup_rabbitmq.py: the exchange, and node.1 .. node.N bound by their names."""
        ch.exchange_declare(self.exchange, exchange_type="direct", durable=False)
        for i in range(1, self.n + 1):
            ch.queue_declare(self.queue(i), durable=False)
            ch.queue_purge(self.queue(i))
            ch.queue_bind(self.queue(i), self.exchange, routing_key=self.queue(i))

    def teardown(self, ch):
        for i in range(1, self.n + 1):
            ch.queue_delete(self.queue(i))
        ch.exchange_delete(self.exchange)

    def send(self, ch, i, kind, candidate):
        succ = i % self.n + 1
        body = json.dumps({"type": kind, "candidate_id": candidate, "sender_id": self.ids[i - 1],
                           "timestamp": datetime.datetime.now(datetime.timezone.utc).isoformat()})
        ch.basic_publish(self.exchange, self.queue(succ), body)
        if kind == "ELECTION":
            self.say("[Node %d] Enviou ELECTION(%d) para Node %d" % (i, candidate, succ))

    def start(self, ch, tally):
        """Rule 1, at node 1."""
        tally["start"] = time.perf_counter_ns()
        self.say("[Node 1] ID=%d iniciando eleição" % self.ids[0])
        self.send(ch, 1, "ELECTION", self.ids[0])
        tally["messages"] += 1

    def handler(self, i, ch, tally, alone):
        """Node i's consumer: the six rules. It publishes on ch and counts
        in tally; a node alone on its channel stops once its part ends (rule
        5 or 6), a node sharing it with the others only at rule 6."""
        my = self.ids[i - 1]

        def send(kind, candidate):
            self.send(ch, i, kind, candidate)
            tally["messages"] += 1

        def on_message(chan, method, properties, body):
            m = json.loads(body)
            c = m["candidate_id"]
            stop = False
            if m["type"] == "ELECTION":
                self.say("[Node %d] ID=%d recebeu ELECTION(%d)%s" % (i, my, c, " - próprio ID!" if c == my else ""))
                if c < my:  # rule 2
                    send("ELECTION", c)
                elif c > my:  # rule 3
                    send("ELECTION", my)
                else:  # rule 4
                    self.say("[Node %d] SOU O LÍDER! Enviando ELECTED(%d)" % (i, my))
                    send("ELECTED", my)
            elif c != my:  # rule 5
                tally["leader"] = c
                self.say("[Node %d] Reconheço líder ID=%d" % (i, c))
                send("ELECTED", c)
                stop = alone
            else:  # rule 6
                self.say("[Node %d] Eleição completa!" % i)
                tally["end"] = time.perf_counter_ns()
                stop = True
            chan.basic_ack(method.delivery_tag)
            if stop:
                chan.stop_consuming()

        return on_message


def new_tally():
    return {"messages": 0, "leader": 0, "start": 0, "end": 0}


def one_process(ring):
    """simulate_ring.py with every node on one connection and channel."""
    conn = pika.BlockingConnection(pika.URLParameters(ring.url))
    ch = conn.channel()
    ring.setup(ch)
    tally = new_tally()
    for i in range(1, ring.n + 1):
        ch.basic_consume(ring.queue(i), ring.handler(i, ch, tally, False))
    ring.start(ch, tally)
    ch.start_consuming()
    ring.teardown(ch)
    conn.close()
    return tally


def node_main(ring, i, ready, results):
    """One node on a connection of its own (the design's Node.start). A
    node that fails breaks the barrier, so that none waits for it."""
    try:
        conn = pika.BlockingConnection(pika.URLParameters(ring.url))
        ch = conn.channel()
        tally = new_tally()
        ch.basic_consume(ring.queue(i), ring.handler(i, ch, tally, True))
        ready.wait(timeout=120)  # every consumer is on its queue
        if i == 1:
            ring.start(ch, tally)
        ch.start_consuming()
        conn.close()
    except Exception as e:
        ready.abort()
        tally = {"error": "node %d: %r" % (i, e)}
    results.put(tally)


def per_node(ring, how):
    """Each node on its own connection, in a thread or a process of its own."""
    conn = pika.BlockingConnection(pika.URLParameters(ring.url))
    ch = conn.channel()
    ring.setup(ch)
    if how == "thread":
        ready, results, new = threading.Barrier(ring.n), queues.Queue(), threading.Thread
    else:
        ctx = multiprocessing.get_context("fork")
        ready, results, new = ctx.Barrier(ring.n), ctx.Queue(), ctx.Process
    workers = [new(target=node_main, args=(ring, i, ready, results)) for i in range(1, ring.n + 1)]
    for w in workers:
        w.start()
    tallies = [results.get() for _ in workers]
    for w in workers:
        w.join()
    ring.teardown(ch)
    conn.close()
    errors = [t["error"] for t in tallies if "error" in t]
    if errors:
        sys.exit("%d of %d nodes failed; first, %s" % (len(errors), ring.n, errors[0]))
    total = new_tally()
    for t in tallies:
        total["messages"] += t["messages"]
        total["leader"] = max(total["leader"], t["leader"])
        # node 1 starts and the leader ends: one monotonic clock (Linux) for all
        total["start"] = max(total["start"], t["start"])
        total["end"] = max(total["end"], t["end"])
    return total


def main():
    url, prefix, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
    flags = sys.argv[4:]
    ring = Ring(url, prefix, n, "--print" in flags)
    how = flags[flags.index("--per-node") + 1] if "--per-node" in flags else ""
    if how not in ("", "thread", "process"):
        sys.exit("--per-node takes thread or process, not %r" % how)
    tally = per_node(ring, how) if how else one_process(ring)
    print("elapsed_ns=%d messages=%d leader=%d" % (tally["end"] - tally["start"], tally["messages"], tally["leader"]),
          file=sys.stderr)


if __name__ == "__main__":
    main()
