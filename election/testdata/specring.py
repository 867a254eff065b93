"""The ring election of the specification, as its own design builds it:
Python and pika, a direct exchange leader.election.ring, queues node.1 ..
node.N bound by their own names, a JSON body (type, candidate_id,
sender_id, timestamp), and the six rules. All nodes live in one process,
as the design's simulate_ring.py runs them: one BlockingConnection, one
channel, one consumer per queue. A node acknowledges a message after it
has published what the message caused.

BenchmarkRingOverRabbitMQ runs it beside ringlab's command, in the same
op, when python3 has pika:

    python3 specring.py URL PREFIX N [--print]

The ids are N, N-1, ..., 1 and node 1 starts: the worst single initiator,
3N-1 messages. On stdout, with --print, the specification's lines; on
stderr, one line: "elapsed_ns=T messages=M leader=L", T from the first
publish to the end (rule 6).
"""

import datetime
import json
import sys
import time

import pika


def main():
    url, prefix, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
    show = "--print" in sys.argv[4:]
    ids = [n - i for i in range(n)]  # node i (1-based) has id ids[i-1]
    exchange = prefix + "leader.election.ring"

    def queue(i):
        return "%snode.%d" % (prefix, i)

    conn = pika.BlockingConnection(pika.URLParameters(url))
    ch = conn.channel()
    ch.exchange_declare(exchange, exchange_type="direct", durable=False)
    for i in range(1, n + 1):
        ch.queue_declare(queue(i), durable=False)
        ch.queue_purge(queue(i))
        ch.queue_bind(queue(i), exchange, routing_key=queue(i))

    state = ["ASLEEP"] * (n + 1)
    run = {"messages": 0, "leader": 0, "start": 0, "end": 0}

    def say(line):
        if show:
            print(line)

    def send(i, kind, candidate):
        succ = i % n + 1
        body = json.dumps({"type": kind, "candidate_id": candidate, "sender_id": ids[i - 1],
                           "timestamp": datetime.datetime.now(datetime.timezone.utc).isoformat()})
        ch.basic_publish(exchange, queue(succ), body)
        run["messages"] += 1
        if kind == "ELECTION":
            say("[Node %d] Enviou ELECTION(%d) para Node %d" % (i, candidate, succ))

    def handler(i):
        my = ids[i - 1]

        def on_message(chan, method, properties, body):
            m = json.loads(body)
            c = m["candidate_id"]
            if m["type"] == "ELECTION":
                say("[Node %d] ID=%d recebeu ELECTION(%d)%s" % (i, my, c, " - próprio ID!" if c == my else ""))
                if c < my:  # rule 2
                    state[i] = "CANDIDATE"
                    send(i, "ELECTION", c)
                elif c > my:  # rule 3
                    state[i] = "CANDIDATE"
                    send(i, "ELECTION", my)
                else:  # rule 4
                    state[i] = "LEADER"
                    say("[Node %d] SOU O LÍDER! Enviando ELECTED(%d)" % (i, my))
                    send(i, "ELECTED", my)
            elif c != my:  # rule 5
                state[i] = "FOLLOWER"
                run["leader"] = c
                say("[Node %d] Reconheço líder ID=%d" % (i, c))
                send(i, "ELECTED", c)
            else:  # rule 6
                say("[Node %d] Eleição completa!" % i)
                run["end"] = time.perf_counter_ns()
                chan.stop_consuming()
            chan.basic_ack(method.delivery_tag)

        return on_message

    for i in range(1, n + 1):
        ch.basic_consume(queue(i), handler(i))
    run["start"] = time.perf_counter_ns()
    say("[Node 1] ID=%d iniciando eleição" % ids[0])
    state[1] = "CANDIDATE"  # rule 1
    send(1, "ELECTION", ids[0])
    ch.start_consuming()
    for i in range(1, n + 1):
        ch.queue_delete(queue(i))
    ch.exchange_delete(exchange)
    conn.close()
    print("elapsed_ns=%d messages=%d leader=%d" % (run["end"] - run["start"], run["messages"], run["leader"]),
          file=sys.stderr)


if __name__ == "__main__":
    main()
