// Package amqptest gives the integration tests of the RabbitMQ runtime,
// in whatever package they are, the broker they run against.
package amqptest

import (
	"context"
	"os"
	"testing"

	"ringlab/engine/amqp"
)

// BrokerURL is the broker of the integration tests: $RINGLAB_AMQP_URL, or
// the default local one. The test is skipped, saying how to run it, when
// no broker answers there.
func BrokerURL(t testing.TB) string {
	t.Helper()
	url := os.Getenv(amqp.EnvURL)
	if url == "" {
		url = amqp.DefaultURL
	}
	if err := amqp.Probe(context.Background(), url); err != nil {
		t.Skipf("needs RabbitMQ: run bash .ci/run, or start rabbitmq-server (%v)", err)
	}
	return url
}
