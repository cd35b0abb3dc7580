//go:build !windows

package procgroup

import (
	"bufio"
	"io"
	"os/exec"
	"syscall"
	"testing"
)

// Kill ends the whole group: the background child a shell forked dies
// with the shell, so the pipe they share reaches EOF with nothing more
// written (a surviving child would write "survived" after its sleep).
// The child is in its own group, apart from the test's.
func TestKillEndsTheGroup(t *testing.T) {
	tests := []struct {
		name string
		attr func() *syscall.SysProcAttr
	}{
		{"Group", Group},
		{"Session", Session},
		{"Detached", Detached},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cmd := exec.Command("/bin/sh", "-c", `(sleep 30; echo survived) & echo started; wait`)
			cmd.SysProcAttr = tt.attr()
			out, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			r := bufio.NewReader(out)
			if line, err := r.ReadString('\n'); line != "started\n" {
				t.Fatalf("first line %q (%v), want started", line, err)
			}
			pgid, err := syscall.Getpgid(cmd.Process.Pid)
			if err != nil || pgid != cmd.Process.Pid || pgid == syscall.Getpgrp() {
				t.Errorf("child's group %d (%v), want its own (%d), not the test's (%d)", pgid, err, cmd.Process.Pid, syscall.Getpgrp())
			}
			if err := Kill(cmd.Process); err != nil {
				t.Fatalf("Kill: %v", err)
			}
			rest, _ := io.ReadAll(r)
			cmd.Wait()
			if len(rest) != 0 {
				t.Errorf("after Kill the group wrote %q, want nothing", rest)
			}
		})
	}
}
