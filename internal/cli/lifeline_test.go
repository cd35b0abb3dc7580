package cli

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/synaps-cli/synaps/internal/extension/exttest"
)

// Nothing synaps starts outlives it: through the real binary (this test
// binary re-run as synaps, with the lifeline armed as cmd/synaps arms it),
// a process left behind is found by its working directory.
func TestLifelineNothingOutlivesSynaps(t *testing.T) {
	synaps, err := exec.LookPath("synaps")
	if err != nil {
		t.Skipf("synaps is not on PATH (TestMain puts this test binary there): %v", err)
	}
	for _, tc := range []struct {
		name string
		// extension, if set, is the args of an sh -c extension.
		extension string
		script    string
		// waitFor is the start of a command line (from /proc/PID/cmdline,
		// spaces for NULs) that must be running under dir before synaps
		// is killed — the command itself, not the shell whose script
		// names it;
		// "" lets synaps run to its end.
		waitFor string
		// dir is where the process to be killed runs: "work" or "plugin".
		dir string
	}{{
		// The bash tool's shell dies by its parent-death signal; the
		// sleep it forked is in its group, which the sentinel kills.
		// The 70,000 bytes overfill the output pipe, so the sleep starts
		// only once synaps reads the output, which it does after
		// announcing the group to the sentinel (SIGKILL between the
		// start and the announcement is the window docs/reliability.md
		// names).
		name:    "bash tool command, synaps SIGKILLed",
		script:  `{"text":"wait","tool_calls":[{"name":"bash","input":{"command":"head -c 70000 /dev/zero; sleep 30; echo slow > slow.txt"}}]}` + "\n" + `{"text":"done"}` + "\n",
		waitFor: "sleep 30",
		dir:     "work",
	}, {
		// An extension that never answers initialize, with a child in
		// its group. It starts the child once it has read initialize's
		// first line, which synaps sends after announcing the group.
		name:      "extension's child, synaps SIGKILLed",
		extension: "read -r _; sleep 61 & sleep 62",
		script:    `{"text":"done"}` + "\n",
		waitFor:   "sleep 61",
		dir:       "plugin",
	}, {
		// An extension whose grandchild leaves the group with setsid
		// and is orphaned: synaps, as subreaper, inherits it and kills
		// it at exit.
		name:      "extension's setsid grandchild, normal exit",
		extension: "setsid sleep 63 </dev/null >/dev/null 2>&1 & exit 3",
		script:    `{"text":"done"}` + "\n",
		dir:       "plugin",
	}} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			base, work := filepath.Join(dir, "base"), filepath.Join(dir, "work")
			plugin := filepath.Join(base, "plugins", "kids")
			for _, d := range []string{filepath.Join(dir, "home"), work, filepath.Join(plugin, ".synaps-plugin")} {
				if err := os.MkdirAll(d, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			write := func(path, content string) {
				if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			write(filepath.Join(work, "turns.jsonl"), tc.script)
			if tc.extension != "" {
				args, _ := json.Marshal([]string{"-c", tc.extension})
				write(filepath.Join(plugin, ".synaps-plugin", "plugin.json"),
					`{"name":"kids","version":"1.0.0","extension":{"command":"sh","args":`+string(args)+`,"protocol_version":1,"permissions":["tools.register"]}}`)
			}
			watched := work
			if tc.dir == "plugin" {
				watched = plugin
			}
			cmd := exec.Command(synaps, "-p", "go", "--model", "script:turns.jsonl", "--allowedTools", "Bash")
			cmd.Dir = work
			cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + filepath.Join(dir, "home"), "SYNAPS_BASE_DIR=" + base, "NO_COLOR=1"}
			cmd.WaitDelay = 5 * time.Second
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			if tc.waitFor != "" {
				if !waitForCommand(watched, tc.waitFor) {
					cmd.Process.Kill()
					cmd.Wait()
					t.Fatalf("%q never ran under %s", tc.waitFor, watched)
				}
				cmd.Process.Signal(syscall.SIGKILL)
			}
			err := cmd.Wait()
			if tc.waitFor == "" && err != nil {
				t.Fatalf("synaps: %v", err)
			}
			exttest.AssertNoProcessesIn(t, watched)
			if _, err := os.Stat(filepath.Join(work, "slow.txt")); err == nil {
				t.Error("the bash command went on after synaps was killed: slow.txt exists")
			}
		})
	}
}

// waitForCommand waits (10 s at most) for a process under dir whose
// command line starts with cmdline.
func waitForCommand(dir, cmdline string) bool {
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		for _, pid := range exttest.ProcessesWithCwdUnder(dir) {
			b, _ := os.ReadFile(filepath.Join("/proc", pid, "cmdline"))
			if strings.HasPrefix(strings.ReplaceAll(string(b), "\x00", " "), cmdline) {
				return true
			}
		}
	}
	return false
}
