package cli_test

import (
	"fmt"
	"os"

	ucli "github.com/urfave/cli/v2"

	"ringlab/engine"
	"ringlab/engine/cli"
	"ringlab/engine/cliutil"
	"ringlab/engine/demo"
)

// An Area's Command makes every command of its algorithms: `toy ping`
// runs one (on the simulator by default, --runtime live or amqp), `toy
// explore ping` tries many schedules, `toy check ping` searches every
// state. The app maps each command's error to an exit code through
// cliutil.Code: bad input to a flag is 2, before anything runs.
func ExampleArea() {
	area := cli.Area{Name: "toy", Usage: "toy algorithms", Algorithms: []engine.Algorithm{demo.Algorithm()}}
	cmds := []*ucli.Command{area.Command()}
	cliutil.Prepare(cmds)
	app := &ucli.App{
		Name: "toyapp", Commands: cmds,
		Writer: os.Stdout, ErrWriter: os.Stdout, // a real app keeps stderr apart
		ExitErrHandler: func(*ucli.Context, error) {},
	}
	for _, args := range [][]string{
		{"toy", "ping", "--hops", "5", "--seed", "1", "--format", "none"},
		{"toy", "ping", "--nodes", "three"},
	} {
		err := app.Run(append([]string{"toyapp"}, args...))
		fmt.Printf("exit %d %v\n", cliutil.Code(err), err)
	}
	// Output:
	// ping on sim, 3 nodes, seed 1: 6 steps, t=5
	// messages: 5 (PING 5)
	// ✓ termination
	// replay: toyapp toy ping --hops 5 --format none --seed 1
	// exit 0 <nil>
	// exit 2 invalid value "three" for flag -nodes: parse error
}
