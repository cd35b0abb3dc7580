//go:build !windows

package tui

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/synaps-cli/synaps/internal/session"
)

// The daemon end to end (docs/daemon.md): the real synaps binary, a
// detachable session in tmux, the daemon it starts, attach from other tmux
// servers. The slow turn is a bash tool call that waits for a file the
// test writes, so the turn runs exactly as long as the test needs.

const daemonScript = `{"text":"Starting the slow work.","tool_calls":[{"name":"bash","input":{"command":"while [ ! -f ../release ]; do sleep 0.05; done; echo tool-done-$((40+2))"}}]}
{"text":"The slow turn is finished.","expect":{"last_user_contains":"also mention the tests"}}
{"text":"Got the sent text."}
`

// daemonE2E is newE2E for a detachable session: the binary, and cleanup
// that stops the daemon whatever happened.
func daemonE2E(t *testing.T, script string) (*e2e, string) {
	t.Helper()
	e := newE2E(t, script)
	if !strings.Contains(e.argv[0], "synaps") {
		t.Skip("needs the synaps binary")
	}
	bin := e.argv[0]
	t.Cleanup(func() {
		cmd := exec.Command(bin, "daemon", "stop")
		cmd.Env = append(os.Environ(), e.env...)
		cmd.Run()
		if pid := daemonPID(e); pid > 0 {
			syscall.Kill(pid, syscall.SIGKILL)
		}
	})
	return e, bin
}

func daemonPID(e *e2e) int {
	b, _ := os.ReadFile(filepath.Join(e.base, "run", "daemon.lock"))
	pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	return pid
}

// synaps runs a synaps command (not in tmux) and returns its output.
func (e *e2e) synaps(t *testing.T, args ...string) (string, error) {
	t.Helper()
	cmd := exec.Command(e.argv[0], args...)
	cmd.Env = append(os.Environ(), e.env...)
	cmd.Dir = e.work
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// other starts another tmux server running synaps with args.
func (e *e2e) other(t *testing.T, args ...string) *tmux {
	t.Helper()
	bin, _ := exec.LookPath("tmux")
	run := filepath.Join(e.tmp, fmt.Sprintf("run%d", time.Now().UnixNano()))
	if err := os.MkdirAll(run, 0o755); err != nil {
		t.Fatal(err)
	}
	return startTmuxSized(t, bin, run, e.work, 100, 30, e.env, append([]string{e.argv[0]}, args...))
}

var detachedRE = regexp.MustCompile(`detached; the session goes on in the daemon: synaps attach (\S+)`)

// A slow turn in a detachable session: quit detaches and the turn goes
// on; an observer attached mid-turn sees it finish live; the owner
// attaching later finds it finished, on screen; synaps send reaches the
// session and both see the answer; stop ends everything.
func TestDaemonDetachAttach(t *testing.T) {
	e, bin := daemonE2E(t, daemonScript)
	e.start(t, 100, 30, "--detachable", "--no-extensions")
	e.waitFor("the prompt", contains("Ask anything"), contains("tokens"), contains("ctrl+d twice detaches (the session goes on)"))
	e.send("do the slow thing")
	e.waitFor("the slow turn running", contains("Starting the slow work."), contains("bash"), absent("tool-done-42"))

	e.keys("C-d")
	e.waitFor("the detach hint", contains("press ctrl+d again to detach (the session goes on)"))
	e.keys("C-d")
	if code := e.waitExit(); code != "0" {
		t.Fatalf("the detached client exited %s; screen:\n%s", code, e.capture())
	}
	stderr := readFile(t, filepath.Join(e.tmux.tmp, "stderr"))
	m := detachedRE.FindStringSubmatch(stderr)
	if m == nil {
		t.Fatalf("no attach hint on stderr: %q", stderr)
	}
	id := m[1]
	out, err := e.synaps(t, "daemon", "sessions")
	if err != nil || !regexp.MustCompile(`(?m)^`+regexp.QuoteMeta(id)+`\s+\d+\s+working\s`).MatchString(out) {
		t.Fatalf("daemon sessions while the turn runs: %v\n%s", err, out)
	}

	// An observer: the replay shows the turn so far, then it goes on live.
	obs := e.other(t, "attach", id, "--observe")
	obs.waitFor("the replay, mid-turn", contains("› do the slow thing"), contains("Starting the slow work."), absent("The slow turn is finished."))

	// synaps send mid-turn steers it: the words wait above the input,
	// then join the turn's next model request (the script's expect checks
	// the request has them).
	if out, err := e.synaps(t, "send", id, "also mention the tests"); err != nil || !strings.Contains(out, "sent to "+id) {
		t.Fatalf("synaps send mid-turn: %v\n%s", err, out)
	}
	obs.waitFor("the steering waiting", contains("also mention the tests"))
	writeFile(t, filepath.Join(e.tmp, "release"), "go")
	obs.waitFor("the turn finishing, live, steered", contains("tool-done-42"), contains("also mention the tests  · steered into the turn"), contains("The slow turn is finished."))

	// The owner comes back: the finished turn is on the screen.
	owner := e.other(t, "attach")
	owner.waitFor("the finished turn on screen", contains("› do the slow thing"), contains("The slow turn is finished."), contains("Ask anything"))

	// synaps send, from outside: a new message of the idle session, seen
	// by both.
	if out, err := e.synaps(t, "send", id, "a note from cron"); err != nil || !strings.Contains(out, "sent to "+id) {
		t.Fatalf("synaps send: %v\n%s", err, out)
	}
	for _, tm := range []*tmux{owner, obs} {
		tm.waitFor("the sent text answered", contains("› a note from cron"), contains("Got the sent text."))
	}

	// The observer leaves with q; the owner with /quit: both detach.
	obs.keys("q")
	if code := obs.waitExit(); code != "0" {
		t.Errorf("the observer exited %s", code)
	}
	owner.send("/quit")
	if code := owner.waitExit(); code != "0" {
		t.Errorf("the owner exited %s", code)
	}
	if out, err := e.synaps(t, "daemon", "stop"); err != nil {
		t.Fatalf("daemon stop: %v\n%s", err, out)
	}
	text := e.sessionText(t, id)
	for _, want := range []string{"do the slow thing", "tool-done-42", "also mention the tests", "The slow turn is finished.", "a note from cron", "Got the sent text."} {
		if !strings.Contains(text, want) {
			t.Errorf("the session file lacks %q:\n%s", want, text)
		}
	}
	if owner, held := session.Locked(e.base, id); held {
		t.Errorf("the session is still locked by %+v after the daemon stopped", owner)
	}
	waitNoProcess(t, bin)
}

// waitNoProcess waits until no process of the binary runs.
func waitNoProcess(t *testing.T, bin string) {
	t.Helper()
	for deadline := time.Now().Add(e2eWait); ; time.Sleep(50 * time.Millisecond) {
		left := processesRunning(bin)
		if len(left) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("synaps processes still running: %v", left)
		}
	}
}

// processesWith lists the pids whose command line contains s.
func processesWith(s string) []string {
	var pids []string
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	for _, d := range dirs {
		b, err := os.ReadFile(filepath.Join(d, "cmdline"))
		if err == nil && strings.Contains(string(b), s) && filepath.Base(d) != strconv.Itoa(os.Getpid()) {
			if st, err := os.ReadFile(filepath.Join(d, "stat")); err == nil {
				if i := strings.LastIndexByte(string(st), ')'); i > 0 && strings.HasPrefix(string(st)[i+1:], " Z") {
					continue // ended, waiting to be reaped
				}
			}
			pids = append(pids, filepath.Base(d))
		}
	}
	return pids
}

// kill -9 of the daemon mid-turn: its client says so; no synaps, no
// extension, no tool command is left; the session file is valid; attach starts a new daemon
// and offers the session; attach ID resumes it and it goes on.
func TestDaemonKilledMidTurn(t *testing.T) {
	e, bin := daemonE2E(t, daemonScript)
	// An extension too: it must not outlive the daemon either.
	guard := goBuild(t, repoRoot(t), filepath.Join(e.tmp, "guardext"), "./internal/tui/testdata/guardext")
	writeFile(t, filepath.Join(e.base, "plugins", "guard", ".synaps-plugin", "plugin.json"), fmt.Sprintf(
		`{"name":"guard","version":"0.1.0","extension":{"command":%q,"permissions":["hooks.before_tool_call"]}}`, guard))
	e.start(t, 100, 30, "--detachable")
	e.waitFor("the prompt", contains("Ask anything"), contains("ext 1 o"))
	e.send("do the slow thing")
	e.waitFor("the slow turn running", contains("Starting the slow work."), contains("bash"))
	// The screen shows the call before the guard has judged it and bash
	// has started, so the command is waited for, not expected at once.
	for deadline := time.Now().Add(e2eWait); len(processesWith("../release")) == 0; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the tool command is not running")
		}
	}
	if len(processesRunning(guard)) == 0 {
		t.Fatal("the extension is not running")
	}
	pid := daemonPID(e)
	if pid <= 0 {
		t.Fatal("no daemon pid in run/daemon.lock")
	}
	syscall.Kill(pid, syscall.SIGKILL)

	if code := e.waitExit(); code != "1" {
		t.Errorf("the client exited %s after the daemon was killed", code)
	}
	if stderr := readFile(t, filepath.Join(e.tmux.tmp, "stderr")); !strings.Contains(stderr, "lost the daemon") {
		t.Errorf("the client did not say it lost the daemon: %q", stderr)
	}
	waitNoProcess(t, bin)
	waitNoProcess(t, guard)
	for deadline := time.Now().Add(e2eWait); len(processesWith("../release")) > 0; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the tool command outlived the daemon: %v", processesWith("../release"))
		}
	}

	list, err := session.List(e.base)
	if err != nil || len(list) != 1 || list[0].Error != "" || list[0].Damaged != 0 {
		t.Fatalf("sessions after the kill: %+v, %v", list, err)
	}
	id := list[0].ID
	if owner, held := session.Locked(e.base, id); held {
		t.Fatalf("the killed session is still locked by %+v", owner)
	}

	// attach: a new daemon, which runs nothing, offers the session.
	out, err := e.synaps(t, "daemon", "status")
	if err == nil {
		t.Fatalf("a daemon answers after the kill:\n%s", out)
	}
	offer := e.other(t, "attach")
	offer.waitFor("the offer", contains("no session runs in the daemon; saved sessions"), contains(id))
	if code := offer.waitExit(); code != "1" {
		t.Errorf("attach with nothing running exited %s", code)
	}
	if stderr := readFile(t, filepath.Join(offer.tmp, "stderr")); !strings.Contains(stderr, "started the synaps daemon") {
		t.Errorf("attach did not start a daemon: %q", stderr)
	}

	// attach ID resumes it in the daemon, on the model the session
	// recorded (the script file, which a resumed session goes on with
	// after the lines it used: its first was played before the crash, the
	// second now holds the answer after it); the interrupted tool call is
	// answered as interrupted, and the session goes on.
	writeFile(t, filepath.Join(e.work, "script.jsonl"), `{"text":"played before the crash"}`+"\n"+`{"text":"Carrying on after the crash."}`+"\n")
	back := e.other(t, "attach", id)
	back.waitFor("the resumed session", contains("resumed session "+id), contains("Starting the slow work."), contains("Ask anything"))
	back.send("carry on")
	back.waitFor("the next answer", contains("Carrying on after the crash."))
	text := e.sessionText(t, id)
	for _, want := range []string{session.Interrupted[:30], "carry on", "Carrying on after the crash."} {
		if !strings.Contains(text, want) {
			t.Errorf("the session file lacks %q:\n%s", want, text)
		}
	}
}

// The daemon stopped while a client is attached: the client says the
// session ended and why, in one sentence ("the session ID ended: its
// synaps exited"), and exits 0.
func TestDaemonStopEndsAttachedClient(t *testing.T) {
	e, _ := daemonE2E(t, `{"text":"unused"}`+"\n")
	e.start(t, 100, 30, "--detachable", "--no-extensions")
	e.waitFor("the prompt", contains("Ask anything"), contains("tokens"))
	out, err := e.synaps(t, "daemon", "sessions")
	id := regexp.MustCompile(`(?m)^(\d{8}-\d{6}-\w+)\s`).FindStringSubmatch(out)
	if err != nil || id == nil {
		t.Fatalf("daemon sessions: %v\n%s", err, out)
	}
	if out, err := e.synaps(t, "daemon", "stop"); err != nil {
		t.Fatalf("daemon stop: %v\n%s", err, out)
	}
	if code := e.waitExit(); code != "0" {
		t.Fatalf("the attached client exited %s; screen:\n%s", code, e.capture())
	}
	stderr := readFile(t, filepath.Join(e.tmux.tmp, "stderr"))
	if want := "the session " + id[1] + " ended: its synaps exited"; !strings.Contains(stderr, want) {
		t.Errorf("stderr %q; want it to say %q", stderr, want)
	}
}

// Idle exit: a daemon with no client and no turn running ends by itself
// (config daemon_idle_exit; the session is detachable by config), ending its sessions as a quit does: saved,
// unlocked, resumable.
func TestDaemonIdleExit(t *testing.T) {
	e, bin := daemonE2E(t, `{"text":"Answered before the daemon went idle."}
`)
	// detachable = true: a plain synaps runs in the daemon.
	writeFile(t, filepath.Join(e.base, "config"), "detachable = true\ndaemon_idle_exit = 200ms\n")
	e.start(t, 100, 30, "--no-extensions")
	e.waitFor("the prompt", contains("Ask anything"), contains("tokens"))
	e.send("one question")
	e.waitFor("the answer", contains("Answered before the daemon went idle."))
	e.keys("C-d", "C-d")
	if code := e.waitExit(); code != "0" {
		t.Fatalf("the client exited %s", code)
	}
	waitNoProcess(t, bin) // the daemon and its session ended by themselves
	list, err := session.List(e.base)
	if err != nil || len(list) != 1 || list[0].Messages != 2 {
		t.Fatalf("sessions after idle exit: %+v, %v", list, err)
	}
	if owner, held := session.Locked(e.base, list[0].ID); held {
		t.Errorf("the session is still locked by %+v", owner)
	}
	log := readFile(t, filepath.Join(e.base, "run", "daemon.log"))
	if !strings.Contains(log, "idle for 200ms with no client and no turn running: exiting") {
		t.Errorf("the daemon's log does not say why it exited:\n%s", log)
	}
}

// attach with an id that no daemon runs and no saved session has says
// so, and starts no daemon to idle for half an hour.
func TestAttachUnknownStartsNoDaemon(t *testing.T) {
	e, _ := daemonE2E(t, daemonScript)
	x := e.other(t, "attach", "20991231-000000-nope")
	if code := x.waitExit(); code != "1" {
		t.Errorf("attach of an unknown id exited %s", code)
	}
	if stderr := readFile(t, filepath.Join(x.tmp, "stderr")); !strings.Contains(stderr, "no session 20991231-000000-nope: no synaps daemon runs and no saved session has that id") {
		t.Errorf("stderr: %q", stderr)
	}
	if _, err := os.Stat(filepath.Join(e.base, "run", "daemon.sock")); err == nil {
		t.Error("a daemon was started for nothing")
	}
}
