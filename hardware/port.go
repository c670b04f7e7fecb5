package hardware

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"time"

	"go.bug.st/serial"
	"go.bug.st/serial/enumerator"
)

// Port is what the driver needs of a serial line. Read returns 0, nil when
// the read timeout passes without data (as go.bug.st/serial does); Close
// unblocks a pending Read.
type Port interface {
	Read(p []byte) (int, error)
	Write(p []byte) (int, error)
	SetReadTimeout(d time.Duration) error
	Close() error
}

// inputResetter is implemented by ports that can drop buffered input.
type inputResetter interface{ ResetInputBuffer() error }

// Opener opens the port for one connection attempt. It is called again for
// every reconnect, so it should look the device up anew (a USB board can come
// back under another name).
type Opener func(ctx context.Context) (Port, error)

// DefaultBaud is the line speed of the firmware.
const DefaultBaud = 115200

// OpenPath returns an Opener for a port path (a device, or a symlink to one).
// Modem lines are left alone, so ptys work too.
func OpenPath(path string, baud int) Opener {
	return func(ctx context.Context) (Port, error) {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if _, err := os.Stat(path); err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil, fmt.Errorf("%w: %s does not exist (board unplugged?)", ErrNoPort, path)
			}
			return nil, fmt.Errorf("%w: %s: %v", ErrNoPort, path, err)
		}
		keepDTROnClose(path)
		p, err := serial.Open(path, &serial.Mode{BaudRate: baud, DataBits: 8, Parity: serial.NoParity, StopBits: serial.OneStopBit})
		if err != nil {
			return nil, fmt.Errorf("%w: open %s: %v", ErrNoPort, path, err)
		}
		return p, nil
	}
}

// PortInfo describes one serial port found on the machine.
type PortInfo struct {
	Name         string // e.g. /dev/ttyACM0
	USB          bool
	VID, PID     string // hexadecimal, lower case, e.g. "2341", "0043"
	SerialNumber string
	Product      string
}

// ListPorts lists the serial ports with their USB IDs. Pseudo-terminals
// (the simulated board) are not listed: open them by path.
func ListPorts() ([]PortInfo, error) {
	ports, err := enumerator.GetDetailedPortsList()
	if err != nil {
		return nil, fmt.Errorf("hardware: listing serial ports: %w", err)
	}
	out := make([]PortInfo, 0, len(ports))
	for _, p := range ports {
		out = append(out, PortInfo{
			Name: p.Name, USB: p.IsUSB,
			VID: strings.ToLower(p.VID), PID: strings.ToLower(p.PID),
			SerialNumber: p.SerialNumber, Product: p.Product,
		})
	}
	return out, nil
}

// ParseVIDPID reads "VID:PID" in hexadecimal, e.g. "2341:0043".
func ParseVIDPID(s string) (vid, pid string, err error) {
	v, p, ok := strings.Cut(strings.TrimSpace(s), ":")
	if !ok || !isHex4(v) || !isHex4(p) {
		return "", "", fmt.Errorf("hardware: USB id %q: want VID:PID as two 4-digit hex numbers, e.g. 2341:0043", s)
	}
	return strings.ToLower(v), strings.ToLower(p), nil
}

func isHex4(s string) bool {
	if len(s) != 4 {
		return false
	}
	for _, c := range strings.ToLower(s) {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// FindPort returns the first port with the given USB IDs.
func FindPort(vid, pid string) (string, error) {
	ports, err := ListPorts()
	if err != nil {
		return "", err
	}
	for _, p := range ports {
		if p.USB && p.VID == vid && p.PID == pid {
			return p.Name, nil
		}
	}
	return "", fmt.Errorf("%w: no USB serial port with id %s:%s (see `blueprints scoreboard list`)", ErrNoPort, vid, pid)
}

// OpenVIDPID returns an Opener that finds the board by USB IDs on every
// attempt.
func OpenVIDPID(vid, pid string, baud int) Opener {
	return func(ctx context.Context) (Port, error) {
		name, err := FindPort(vid, pid)
		if err != nil {
			return nil, err
		}
		return OpenPath(name, baud)(ctx)
	}
}
