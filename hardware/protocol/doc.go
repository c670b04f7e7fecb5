// Package protocol is the pure codec of the scoreboard's serial protocol
// (firmware/PROTOCOL.md): COBS framing with a 0x00 delimiter, CRC-16/CCITT,
// the frame layout (seq, type, payload, crc), the command and answer types,
// and a Splitter that cuts a byte stream into frames.
//
// It imports only the standard library, does no I/O, and encodes and
// decodes without allocating, so the driver in package hardware can run it
// on every byte and the fuzz target FuzzDecode can hammer it.
package protocol
