// Package bullylab is the lab on the Bully election with crashes: students
// write the handlers of ELECTION, OK, COORD and the two timeouts (the
// skeleton in testdata/skeleton), the visible tests run it on the
// simulator, and the hidden tests search every schedule of four nodes with
// the old leader down and one more crash anywhere. Its test grades the
// reference solution (bully/), the skeleton and two buggy submissions as
// Gradescope's autograder would; README.md shows what each sees.
package bullylab
