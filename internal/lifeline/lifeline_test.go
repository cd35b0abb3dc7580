//go:build !windows

package lifeline

import (
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// The sentinel kills, at EOF on its stdin, the groups announced and not
// withdrawn — and only those.
func TestSentinelKillsAnnouncedGroups(t *testing.T) {
	start := func() *exec.Cmd {
		c := exec.Command("sleep", "60")
		c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		return c
	}
	kept, withdrawn, other := start(), start(), start()
	defer func() {
		for _, c := range []*exec.Cmd{kept, withdrawn, other} {
			syscall.Kill(-c.Process.Pid, syscall.SIGKILL)
		}
	}()
	pid := func(c *exec.Cmd) string { return strconv.Itoa(c.Process.Pid) }
	s := exec.Command("/bin/sh", "-c", sentinelScript)
	s.Stdin = strings.NewReader("add " + pid(kept) + "\nadd " + pid(withdrawn) + "\ndel " + pid(withdrawn) + "\n")
	if out, err := s.CombinedOutput(); err != nil {
		t.Fatalf("sentinel: %v\n%s", err, out)
	}
	if err := kept.Wait(); err == nil || !strings.Contains(err.Error(), "killed") {
		t.Errorf("announced group: %v, want killed", err)
	}
	for _, c := range []*exec.Cmd{withdrawn, other} {
		if err := syscall.Kill(c.Process.Pid, 0); err != nil {
			t.Errorf("group %d was killed but not announced (or withdrawn): %v", c.Process.Pid, err)
		}
	}
	for _, c := range []*exec.Cmd{withdrawn, other} {
		syscall.Kill(-c.Process.Pid, syscall.SIGKILL)
		c.Wait()
	}
}
