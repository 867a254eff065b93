// Package assignment is a worked assignment for teachers: students write
// the handlers of Ricart and Agrawala's mutual exclusion (the skeleton in
// testdata/skeleton), the visible tests run it on the simulator, and the
// teacher's hidden tests search every state of three nodes. Its test
// grades the skeleton and the reference solution (ricart/) as Gradescope's
// autograder would, and checks both verdicts; README.md shows the
// commands.
package assignment
