// Package centrallab is the central coordinator lab for teachers:
// students write the handlers of a coordinator whose timeout takes a
// grant back (the skeleton in testdata/skeleton), the visible tests run
// it on the simulator, and the teacher's hidden tests search every state:
// without the timeout, with a participant that dies in the critical
// section, and with one that is only slow. Its test grades the skeleton,
// two buggy submissions and the reference solution (central/) as
// Gradescope's autograder would; README.md shows what each gets.
package centrallab
