package lifeline

import (
	"os/exec"
	"testing"
)

// A spared child (the session daemon a client starts) is not among the
// orphans Stop kills; the others are.
func TestSparedChildIsNotReaped(t *testing.T) {
	kid := exec.Command("sleep", "60")
	if err := kid.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { kid.Process.Kill(); kid.Wait() }()
	has := func(pids []int) bool {
		for _, p := range pids {
			if p == kid.Process.Pid {
				return true
			}
		}
		return false
	}
	if !has(children(nil)) {
		t.Fatalf("children() lacks the child %d", kid.Process.Pid)
	}
	if has(children(map[int]bool{kid.Process.Pid: true})) {
		t.Errorf("children() lists the spared child %d", kid.Process.Pid)
	}
}
