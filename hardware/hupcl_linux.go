package hardware

import (
	"os"

	"golang.org/x/sys/unix"
)

// keepDTROnClose clears HUPCL on the tty at path, so closing the port does
// not drop DTR: on an Arduino a falling DTR resets the board, which would
// blank the displays as soon as a short command such as `scoreboard show`
// exits. Best effort: errors are ignored (a pty has no DTR anyway).
func keepDTROnClose(path string) {
	f, err := os.OpenFile(path, os.O_RDWR|unix.O_NOCTTY|unix.O_NONBLOCK, 0)
	if err != nil {
		return
	}
	defer f.Close()
	fd := int(f.Fd())
	t, err := unix.IoctlGetTermios(fd, unix.TCGETS)
	if err != nil || t.Cflag&unix.HUPCL == 0 {
		return
	}
	t.Cflag &^= unix.HUPCL
	_ = unix.IoctlSetTermios(fd, unix.TCSETS, t)
}
