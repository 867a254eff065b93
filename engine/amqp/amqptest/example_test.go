package amqptest_test

import (
	"context"
	"testing"

	"ringlab/engine/amqp"
	"ringlab/engine/amqp/amqptest"
)

// BrokerURL starts an integration test: it returns the broker to run
// against ($RINGLAB_AMQP_URL, or the local default) and skips the test,
// saying how to start one, when no broker answers. The test below is
// what a _test.go file holds; it needs a broker and a *testing.T, so
// this example is compiled but not run.
func ExampleBrokerURL() {
	testOverTheBroker := func(t *testing.T) {
		url := amqptest.BrokerURL(t) // skips t when no broker answers
		if err := amqp.Probe(context.Background(), url); err != nil {
			t.Fatal(err)
		}
	}
	_ = testOverTheBroker
}
