package simboard

import (
	"os/exec"
	"syscall"
)

// dieWithParent makes the simulator die with the test process, even if the
// test is killed before its cleanups run.
func dieWithParent(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
