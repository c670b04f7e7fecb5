// Package fakeboard serves the scoreboard's serial protocol on a pty of
// its own, answering each command with what a handler returns: for tests
// of the cases the real firmware (run under simavr by hardware/simboard)
// never produces — a board that says nothing, refuses a command, or has
// fewer displays than a game needs.
package fakeboard
