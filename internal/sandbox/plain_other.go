//go:build !linux

package sandbox

import "os/exec"

// StartPlain starts an unconfined cmd (a parent-death signal, which
// needs a thread that outlives the child, is Linux's alone).
func StartPlain(cmd *exec.Cmd) error { return cmd.Start() }
