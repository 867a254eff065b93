// Package lamportlab is the lab on Lamport's mutual exclusion: students
// write the handlers of the request queue (the skeleton in
// testdata/skeleton), the visible tests run it on the simulator, and the
// hidden tests search every state of small systems over FIFO links, and
// check that links in any order break it. Its test grades the reference
// solution (lamport/), the skeleton and two buggy submissions as
// Gradescope's autograder would; README.md shows what each sees.
package lamportlab
