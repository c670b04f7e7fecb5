// Package simboard runs the simulated scoreboard (firmware/build/scoreboard-sim
// with the real firmware ELF in simavr) for tests and measurements: it
// starts the simulator behind a symlink path, follows the JSON lines it
// writes, and lets a test wait for what the 7-segment digits and the buzzer
// show, inject faults, and kill and restart the board at the same path.
//
// It is a test helper (it takes a testing.TB) for this module's tests of
// hardware and cmd/blueprints; it needs Linux.
//
// The binaries are built by `make -C firmware` (and by `make test`, before
// the Go tests); when they are missing, Start fails the test saying so.
package simboard
