package tui

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestTUIAsksTmuxOnce: inside tmux, the colour profile is found by
// running `tmux info`; lipgloss's package init does it once, and the UI
// asked the same question again before its first frame (10–20 ms more
// of a start that should be ready in under 50 ms). A `tmux` first on
// PATH counts the asks.
func TestTUIAsksTmuxOnce(t *testing.T) {
	e := newE2E(t, `{"text":"hi"}
`)
	if !strings.Contains(e.argv[0], "synaps") {
		t.Skip("needs the synaps binary")
	}
	real, _ := exec.LookPath("tmux")
	bin := filepath.Join(e.tmp, "bin")
	log := filepath.Join(e.tmp, "tmux-asks")
	writeFile(t, filepath.Join(bin, "tmux"), "#!/bin/sh\necho \"$*\" >> "+shellQuote(log)+"\nexec "+shellQuote(real)+" \"$@\"\n")
	if err := os.Chmod(filepath.Join(bin, "tmux"), 0o755); err != nil {
		t.Fatal(err)
	}
	e.env = append(e.env, "PATH="+bin+":"+os.Getenv("PATH"))
	e.start(t, 100, 30, "--no-extensions")
	e.waitFor("the prompt", contains("Ask anything"), contains("tokens"))
	e.keys("C-c", "C-c")
	if code := e.waitExit(); code != "0" {
		t.Errorf("exit code %s", code)
	}
	asks := strings.Count(readFile(t, log), "info")
	if asks != 1 {
		t.Errorf("tmux was asked for its colours %d times, want once (lipgloss's init)", asks)
	}
}
