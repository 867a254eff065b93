// Package tokenringlab is the token ring lab for teachers: students write
// the handlers of a token ring whose lost token is regenerated exactly
// once (the skeleton in testdata/skeleton), the visible tests run it on
// the simulator, and the teacher's hidden tests search every state of
// three nodes, with and without a lost message. Its test grades the
// skeleton, two buggy submissions and the reference solution (tokenring/)
// as Gradescope's autograder would; README.md shows what each gets.
package tokenringlab
