//go:build !linux

package simboard

import "os/exec"

// dieWithParent relies on stdin closing elsewhere: the simulator exits when
// its stdin closes.
func dieWithParent(*exec.Cmd) {}
