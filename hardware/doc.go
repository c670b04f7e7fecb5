// Package hardware drives the LED scoreboard: one MAX7219 8-digit display per
// player on an ATmega328P board that speaks the protocol of
// firmware/PROTOCOL.md over a USB serial line.
//
// The game loop talks to the Scoreboard interface. Serial is the real board:
// it keeps the desired state of every display, pushes it with ACK wait,
// timeout and bounded retry, and reconnects in the background (pushing
// everything again) when the port disappears, the board restarts or stops
// answering. Virtual draws the same displays as text in a terminal, for
// tables without hardware.
//
// This is the only package that imports go.bug.st/serial; the link itself
// runs over the small Port interface (opened by an Opener), so tests use a
// pty of their own, the simulated board of firmware/sim (driven through
// package hardware/simboard), or a fake. The frame codec lives in the pure package
// hardware/protocol and the 7-segment font in hardware/segment.
package hardware
