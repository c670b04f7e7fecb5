// Package segment is the 7-segment font shared by every scoreboard: it turns
// the text of one player's display (up to 8 characters, a '.' lights the
// decimal point of the character before it) into the eight segment bytes a
// MAX7219 shows in no-decode mode, formats scores the way the firmware does,
// and draws segment bytes as ASCII art for the virtual scoreboard.
//
// The table here is the same as firmware/src/font.c; the integration tests
// in package hardware compare what the simulated board lights with Encode.
// It imports only the standard library.
package segment
