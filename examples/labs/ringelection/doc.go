// Package ringelection is a lab for teachers: students write the handlers
// of the specification's ring election (six rules, the smallest id wins;
// the skeleton in testdata/skeleton), the visible tests run the
// specification's four rings on the simulator and compare each node's
// Portuguese lines with the specification's, and the teacher's hidden
// tests search every schedule of the four rings. Its test grades the
// solution, the skeleton and three buggy submissions as Gradescope's
// autograder would; README.md shows what each test checks and what a
// student sees.
package ringelection
