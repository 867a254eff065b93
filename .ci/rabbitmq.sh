#!/usr/bin/env bash
# RabbitMQ for the integration tests of engine/amqp (and `ringlab node`).
#
#   bash .ci/rabbitmq.sh start   install Debian's rabbitmq-server if missing, start it
#                                detached, and wait (at most 60 s) until it answers
#   bash .ci/rabbitmq.sh stop    stop the broker this script started
#
# CI runs as root on a fresh Debian machine. A broker that already answers is
# left alone by start and by the stop that follows (it is someone else's).
set -euo pipefail

marker=/tmp/ringlab-rabbitmq.started

answers() { rabbitmqctl status >/dev/null 2>&1; }

start() {
	if ! command -v rabbitmq-server >/dev/null 2>&1 && [ ! -x /usr/sbin/rabbitmq-server ]; then
		echo "rabbitmq: installing Debian's rabbitmq-server"
		apt-get update
		DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends rabbitmq-server
	fi
	export PATH="$PATH:/usr/sbin"
	if answers; then
		echo "rabbitmq: a broker already answers; using it"
		rm -f "$marker" # not ours to stop
		return
	fi
	# Debian's package may start it as a service; if so, the wait below sees it.
	rabbitmq-server -detached
	touch "$marker"
	for _ in $(seq 60); do
		if answers; then
			echo "rabbitmq: up"
			return
		fi
		sleep 1
	done
	echo "rabbitmq: no answer from rabbitmqctl status after 60 s" >&2
	exit 1
}

stop() {
	export PATH="$PATH:/usr/sbin"
	if [ -f "$marker" ]; then
		rabbitmqctl stop >/dev/null 2>&1 || true
		rm -f "$marker"
		echo "rabbitmq: stopped"
	fi
}

case "${1:-}" in
start) start ;;
stop) stop ;;
*)
	echo "usage: bash .ci/rabbitmq.sh start|stop" >&2
	exit 2
	;;
esac
