package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/synaps-cli/synaps/internal/llm"
	"github.com/synaps-cli/synaps/internal/session"
)

// TestInterruptExits130 builds the real binary (cmd/synaps, so main's own
// signal set-up is what runs), starts `synaps -p` on a scripted turn whose
// bash call runs until stopped, sends SIGINT once the call has started, and
// checks that synaps exits 130, says how to resume, and saved the session
// with the interrupted call answered — and that the bash call's process
// is gone.
func TestInterruptExits130(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	if runtime.GOOS == "windows" {
		t.Skip("SIGINT cannot be sent to a process on Windows")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "synaps")
	build := exec.Command("go", "build", "-o", bin, "../../cmd/synaps")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	// A sleep no other process on the machine runs, to find it in /proc.
	marker := "sleep 8370.5"
	script := `{"text":"Starting.","tool_calls":[{"name":"bash","input":{"command":"touch started; ` + marker + `"}}]}` + "\n" +
		`{"text":"never played"}` + "\n"
	if err := os.WriteFile(filepath.Join(dir, "slow.jsonl"), []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	base := filepath.Join(dir, "base")
	cmd := exec.Command(bin, "-p", "run the long job", "--model", "script:slow.jsonl", "--output-format", "stream-json", "--no-extensions", "--allowedTools", "Bash")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "SYNAPS_BASE_DIR="+base, "HOME="+dir)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	lines := make(chan []string, 1)
	go func() {
		var all []string
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			all = append(all, sc.Text())
		}
		lines <- all
	}()

	// Wait for the bash call to be running: the file it touches.
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(5 * time.Millisecond) {
		if _, err := os.Stat(filepath.Join(dir, "started")); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the bash call did not start within a minute\n%s", stderr.String())
		}
	}
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	out := <-lines
	err = cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != ExitInterrupted {
		t.Fatalf("synaps ended with %v, want exit code %d\nstderr:\n%s", err, ExitInterrupted, stderr.String())
	}

	// The last stdout line is the result record, naming the session.
	var res struct {
		Type      string `json:"type"`
		SessionID string `json:"session_id"`
		IsError   bool   `json:"is_error"`
		Error     string `json:"error"`
	}
	if len(out) == 0 {
		t.Fatalf("no stdout\nstderr:\n%s", stderr.String())
	}
	if err := json.Unmarshal([]byte(out[len(out)-1]), &res); err != nil {
		t.Fatal(err)
	}
	if res.Type != "result" || !res.IsError || res.Error != "interrupted" || res.SessionID == "" {
		t.Errorf("result record %s", out[len(out)-1])
	}
	if want := "synaps: interrupted; the session is saved, resume it with: synaps --resume " + res.SessionID + "\n"; !strings.HasSuffix(stderr.String(), want) {
		t.Errorf("stderr does not end with %q:\n%s", want, stderr.String())
	}

	// The session holds the prompt, the call and its (error) result.
	d, err := session.Read(filepath.Join(session.Dir(base), res.SessionID+".jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range d.Messages {
		for _, b := range m.Content {
			switch b.Type {
			case llm.BlockText:
				got = append(got, string(m.Role)+" text: "+b.Text)
			case llm.BlockToolUse:
				got = append(got, string(m.Role)+" tool_use: "+b.Name)
			case llm.BlockToolResult:
				got = append(got, string(m.Role)+" tool_result, error: "+map[bool]string{true: "yes", false: "no"}[b.IsError])
			}
		}
	}
	want := []string{"user text: run the long job", "assistant text: Starting.", "assistant tool_use: bash", "user tool_result, error: yes"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("session messages (-want +got):\n%s", diff)
	}

	// The bash call's process group was killed before synaps exited.
	procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, p := range procs {
		if b, err := os.ReadFile(p); err == nil && strings.Contains(string(bytes.ReplaceAll(b, []byte{0}, []byte{' '})), marker) {
			t.Errorf("%s (%s) outlived synaps", marker, p)
		}
	}
}

// TestChatInterruptWhileWaiting: Ctrl-C while `synaps chat` waits for
// input (stdin still open) ends chat with 130 at once; it does not wait
// for another line.
func TestChatInterruptWhileWaiting(t *testing.T) {
	synaps, err := exec.LookPath("synaps")
	if err != nil {
		t.Skipf("synaps is not on PATH (TestMain puts this test binary there): %v", err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "turns.jsonl"), []byte(`{"text":"Hello there."}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(synaps, "chat", "--model", "script:turns.jsonl", "--no-extensions", "--allowedTools", "Bash")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "SYNAPS_BASE_DIR="+filepath.Join(dir, "base"), "HOME="+dir, "NO_COLOR=1")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	defer stdin.Close()
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	// A turn, then a slash command: its output comes after the turn has
	// ended and given SIGINT back, so chat is then waiting for input.
	if _, err := stdin.Write([]byte("hi\n/model\n")); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(stdout)
	for sc.Scan() && !strings.Contains(sc.Text(), "model: script:turns.jsonl") {
	}
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	for sc.Scan() {
	}
	err = cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != ExitInterrupted {
		t.Fatalf("chat ended with %v, want exit code %d\nstderr:\n%s", err, ExitInterrupted, stderr.String())
	}
	if !strings.Contains(stderr.String(), "synaps: interrupted") {
		t.Errorf("stderr:\n%s", stderr.String())
	}
}
