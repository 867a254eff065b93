package cli

import (
	"strings"
	"testing"

	ucli "github.com/urfave/cli/v2"

	"ringlab/engine/cliutil"
)

// The replay command a run writes (its replay: line, its log's header and
// summary, the page's data) masks --url's password (and, for a run on
// goroutines or the broker, carries no --seed: none replays it).
func TestReplayMasksThePassword(t *testing.T) {
	var replay string
	app := &ucli.App{Name: "ringlab", Commands: []*ucli.Command{{Name: "x", Flags: Flags(), Action: func(c *ucli.Context) error {
		replay = Replay(c, 7)
		return nil
	}}}}
	if err := app.Run([]string{"ringlab", "x", "--runtime", "amqp", "--url", "amqp://guest:s3cret@broker:5672/"}); err != nil {
		t.Fatal(err)
	}
	if want := "ringlab x --runtime amqp --url amqp://guest:xxx@broker:5672/"; replay != want {
		t.Fatalf("replay %q, want %q", replay, want)
	}
}

// A malformed --url is bad input, refused before connecting.
func TestMalformedURLIsAUsageError(t *testing.T) {
	for _, url := range []string{"amqp://guest:s3cret@host:port/", "http://broker/", ""} {
		_, err := parse(t, false, "--runtime", "amqp", "--url", url)
		if cliutil.Code(err) != cliutil.ExitUsage || !strings.HasPrefix(err.Error(), "--url: ") || strings.Contains(err.Error(), "s3cret") {
			t.Errorf("--url %q: %v (exit %d), want a usage error naming --url, no password", url, err, cliutil.Code(err))
		}
	}
}
