// Package cli is the command-line glue of ringlab's engine, around the
// CLI-free engine/run: the flags every algorithm command shares
// (--runtime, --seed, --format, --events, the faults) and the runtime they
// choose; an Algorithm's typed parameters as flags and back; the commands
// every algorithm gets from an area's list of Algorithm values (Area); the
// outputs, progress and closing summary of a run (Execute); and the
// commands that serve every area alike (render, check, node, amqp,
// version).
//
// A program of your own builds its app from Area.Command (see the
// Example), prepares it with cliutil.Prepare, and maps the error a command
// returns to the exit code with cliutil.Code. The replay lines a run
// prints name the app by its Name; the usage texts of the commands name
// it "ringlab".
package cli
