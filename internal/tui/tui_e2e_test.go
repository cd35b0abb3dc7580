package tui

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// The end-to-end test drives the real program in a real terminal: tmux
// runs it in a 120x40 pane, the test types with send-keys and reads the
// screen, scrollback included, with capture-pane. It waits for things to
// appear (bounded polling), never for a time to pass.
//
// It drives the synaps binary once the command line starts the TUI
// (internal/cli calls tui.Run); until then, testdata/tuimain, a main that
// only calls tui.Run. The extension is testdata/guardext, built with the
// Go SDK: it asks to confirm bash commands that touch files.

// e2eScript is the scripted model: turns 1-2 answer the first prompt,
// 3-4 the second (the guard asks to confirm), 5 the third, which the
// test cancels while its tool sleeps.
const e2eScript = `{"text":"Here is a **bold** claim.\n\n- first point\n- second point\n\nLet me run a command.","tool_calls":[{"name":"bash","input":{"command":"echo hello-from-tool"}}]}
{"text":"The command printed its greeting."}
{"text":"Touching a file now.","tool_calls":[{"name":"bash","input":{"command":"touch confirmed.txt"}}]}
{"text":"done"}
{"text":"Taking a nap.","tool_calls":[{"name":"bash","input":{"command":"sleep 30"}}]}
`

const e2eWait = 20 * time.Second

func TestTUIEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("builds binaries and drives tmux")
	}
	tmuxPath, err := exec.LookPath("tmux")
	if err != nil {
		t.Skip("tmux is not installed (apt-get install -y tmux); the TUI end-to-end test needs it")
	}
	root := repoRoot(t)
	tmp := t.TempDir()
	guard := goBuild(t, root, filepath.Join(tmp, "guardext"), "./internal/tui/testdata/guardext")
	argv := tuiCommand(t, root, tmp)

	// $SYNAPS_BASE_DIR with the guard plugin; a project with a
	// skills-only plugin, untrusted, so the UI asks to trust it.
	base := filepath.Join(tmp, "base")
	work := filepath.Join(tmp, "work")
	writeFile(t, filepath.Join(base, "plugins", "guard", ".synaps-plugin", "plugin.json"), fmt.Sprintf(
		`{"name":"guard","version":"0.1.0","extension":{"command":%q,"permissions":["hooks.before_tool_call"]}}`, guard))
	writeFile(t, filepath.Join(work, ".synaps", "plugins", "notes", ".synaps-plugin", "plugin.json"),
		`{"name":"notes","version":"0.2.0","description":"skills only"}`)
	script := filepath.Join(tmp, "script.jsonl")
	writeFile(t, script, e2eScript)

	tm := startTmux(t, tmuxPath, tmp, work, []string{
		"HOME=" + filepath.Join(tmp, "home"),
		"SYNAPS_BASE_DIR=" + base,
		"TERM=xterm-256color",
	}, append(argv, "script:"+script))

	// Start: the trust question; yes trusts and reloads.
	tm.waitFor("the trust dialog", contains("+ plugin notes (.synaps/plugins/notes)"),
		contains("This project is not trusted; trusting it enables 1 item. Trust this project? [y = trust / o = trust once / N = don't]"))
	tm.send("y")
	tm.waitFor("the project trusted and the plugins reloaded",
		contains("trusted "+work+" (1 item recorded)"), matches(`(?m)^reloaded\s*$`), matches(`(?m)^notes\s+0\.2\.0\s+loaded`))
	tm.waitFor("the status line", contains("ext 2 ok"))

	// One message: the answer streams, is rendered as markdown when
	// complete, and the tool call shows its name, command, output.
	tm.send("tell me something")
	tm.waitFor("the answer and the tool call",
		matches(`(?m)^› tell me something\s*$`),
		contains("Here is a bold claim."),
		absent("**bold**"),
		matches(`(?m)^✓ bash echo hello-from-tool · \S+\s*$`),
		matches(`(?m)^  │ hello-from-tool\s*$`),
		contains("The command printed its greeting."),
	)

	// Second message: the guard asks; the tool waits for the answer.
	tm.send("make a file")
	tm.waitFor("the confirm prompt", contains("? guard: run it?"), contains("Run bash touch confirmed.txt? [y/N]"))
	if _, err := os.Stat(filepath.Join(work, "confirmed.txt")); err == nil {
		t.Fatal("confirmed.txt exists before the user confirmed")
	}
	tm.send("y")
	tm.waitFor("the confirmed tool to run",
		contains("bash allowed"), matches(`(?m)^✓ bash touch confirmed.txt · `), matches(`(?m)^  done\s*$`))
	if _, err := os.Stat(filepath.Join(work, "confirmed.txt")); err != nil {
		t.Fatalf("the confirmed command did not run: %v", err)
	}

	// Third message: ctrl+c cancels the turn while its tool runs; the
	// session goes on.
	tm.send("take a nap")
	tm.waitFor("the running tool", matches(`(?m)^\S bash sleep 30 · `))
	tm.keys("C-c")
	tm.waitFor("the turn cancelled", matches(`(?m)^✗ bash sleep 30 · `), matches(`(?m)^· cancelled\s*$`))

	// Slash commands, with completion.
	tm.send("/extensions list")
	tm.waitFor("/extensions list", matches(`(?m)^guard\s+0\.1\.0\s+loaded\s+-\s+before_tool_call`))
	tm.keys("-l", "/extensions rel")
	tm.waitFor("the completion list", matches(`(?m)^  /extensions reload\s+restart every extension`))
	tm.keys("Tab")
	tm.waitFor("the completed command", matches(`(?m)^› /extensions reload\s*$`))
	tm.keys("Enter")
	tm.waitFor("/extensions reload", func(s string) bool { return strings.Count(s, "\nreloaded") >= 2 })

	// /quit ends the program, the session and the extension.
	tm.send("/quit")
	deadline := time.Now().Add(e2eWait)
	for tm.alive() {
		if time.Now().After(deadline) {
			t.Fatalf("the program is still running after /quit; screen:\n%s", tm.capture())
		}
		time.Sleep(100 * time.Millisecond)
	}
	if code := strings.TrimSpace(readFile(t, filepath.Join(tmp, "exit-code"))); code != "0" {
		t.Errorf("exit code %s; stderr:\n%s", code, readFile(t, filepath.Join(tmp, "stderr")))
	}
	for deadline := time.Now().Add(e2eWait); ; {
		pids := processesRunning(guard)
		if len(pids) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the extension outlived the session: pids %v", pids)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// tuiCommand builds the program to drive and returns its argv, without
// the model argument.
func tuiCommand(t *testing.T, root, tmp string) []string {
	t.Helper()
	if cliStartsTUI(root) {
		t.Log("driving the synaps binary")
		// Bash and file edits run without asking: these tests are about
		// the screen, not permissions (an extension's confirm still asks).
		return []string{goBuild(t, root, filepath.Join(tmp, "synaps"), "./cmd/synaps"), "--allowedTools", "Bash Edit", "--model"}
	}
	t.Log("internal/cli does not start the TUI yet: driving testdata/tuimain")
	return []string{goBuild(t, root, filepath.Join(tmp, "tuimain"), "./internal/tui/testdata/tuimain")}
}

// cliStartsTUI reports whether the command line calls tui.Run.
func cliStartsTUI(root string) bool {
	files, _ := filepath.Glob(filepath.Join(root, "internal", "cli", "*.go"))
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		if b, err := os.ReadFile(f); err == nil && bytes.Contains(b, []byte("tui.Run(")) {
			return true
		}
	}
	return false
}

func repoRoot(t testing.TB) string {
	t.Helper()
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if gomod := strings.TrimSpace(string(out)); err == nil && gomod != "" && gomod != os.DevNull {
		return filepath.Dir(gomod)
	}
	abs, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	return abs
}

func goBuild(t testing.TB, root, out, pkg string) string {
	t.Helper()
	cmd := exec.Command("go", "build", "-o", out, pkg)
	cmd.Dir = root
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build %s: %v\n%s", pkg, err, b)
	}
	return out
}

func writeFile(t testing.TB, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// tmux is one tmux server, on its own socket, running the program in
// session "tui".
type tmux struct {
	t      *testing.T
	bin    string // tmux
	socket string // the server's socket path
	tmp    string // where the program's exit code and stderr go
}

// startTmux runs argv with env in dir, in a pane of 120x40. The shell
// around it records the exit code and stderr in tmp.
func startTmux(t *testing.T, bin, tmp, dir string, env, argv []string) *tmux {
	return startTmuxSized(t, bin, tmp, dir, 120, 40, env, argv)
}

// startTmuxSized is startTmux with a pane of cols x rows. The pane stays
// after the program ends (remain-on-exit), so that what it printed last
// can be read; waitExit waits for that end.
func startTmuxSized(t *testing.T, bin, tmp, dir string, cols, rows int, env, argv []string) *tmux {
	t.Helper()
	// A socket of our own (short: sockets paths are limited to ~100
	// bytes) keeps this server apart from any other.
	sockDir, err := os.MkdirTemp("", "synaps-tmux")
	if err != nil {
		t.Fatal(err)
	}
	tm := &tmux{t: t, bin: bin, socket: filepath.Join(sockDir, "s"), tmp: tmp}
	var cmd strings.Builder
	cmd.WriteString("env")
	for _, kv := range env {
		cmd.WriteString(" " + shellQuote(kv))
	}
	for _, a := range argv {
		cmd.WriteString(" " + shellQuote(a))
	}
	fmt.Fprintf(&cmd, " 2>%s; echo $? >%s", shellQuote(filepath.Join(tmp, "stderr")), shellQuote(filepath.Join(tmp, "exit-code")))
	// remain-on-exit is set by the server's config, before the program
	// starts: set afterwards, a program that ends at once (attach of an
	// unknown id) could take its pane, and the server, with it first.
	conf := "/dev/null"
	if cols != 120 || rows != 40 {
		conf = filepath.Join(sockDir, "tmux.conf")
		if err := os.WriteFile(conf, []byte("set-option -g remain-on-exit on\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if out, err := tm.run("-f", conf, "new-session", "-d", "-x", fmt.Sprint(cols), "-y", fmt.Sprint(rows), "-s", "tui", "-c", dir, cmd.String()); err != nil {
		t.Fatalf("tmux new-session: %v\n%s", err, out)
	}
	t.Cleanup(func() {
		tm.run("kill-server")
		os.RemoveAll(sockDir)
	})
	return tm
}

func (tm *tmux) run(args ...string) ([]byte, error) {
	return exec.Command(tm.bin, append([]string{"-S", tm.socket}, args...)...).CombinedOutput()
}

// keys is tmux send-keys: key names, or "-l" then literal text.
func (tm *tmux) keys(keys ...string) {
	tm.t.Helper()
	if out, err := tm.run(append([]string{"send-keys", "-t", "tui"}, keys...)...); err != nil {
		tm.t.Fatalf("tmux send-keys %q: %v\n%s", keys, err, out)
	}
}

// send types a line and enter.
func (tm *tmux) send(line string) {
	tm.t.Helper()
	tm.keys("-l", line)
	tm.keys("Enter")
}

// capture is the pane's text, scrollback included, wrapped lines joined.
func (tm *tmux) capture() string {
	out, err := tm.run("capture-pane", "-p", "-J", "-S", "-", "-t", "tui")
	if err != nil {
		return fmt.Sprintf("(capture-pane failed: %v: %s)", err, out)
	}
	return string(out)
}

func (tm *tmux) alive() bool {
	_, err := tm.run("has-session", "-t", "tui")
	return err == nil
}

// waitFor polls the screen until every check holds; it fails the test,
// showing the screen, when they do not within e2eWait.
func (tm *tmux) waitFor(what string, checks ...func(string) bool) {
	tm.t.Helper()
	deadline := time.Now().Add(e2eWait)
	for {
		screen := tm.capture()
		ok := true
		for _, c := range checks {
			if !c(screen) {
				ok = false
				break
			}
		}
		if ok {
			return
		}
		if time.Now().After(deadline) || !tm.alive() {
			stderr, _ := os.ReadFile(filepath.Join(tm.tmp, "stderr"))
			tm.t.Fatalf("waiting for %s: not on the screen after %v.\nscreen:\n%s\nstderr:\n%s", what, e2eWait, screen, stderr)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func contains(s string) func(string) bool {
	return func(screen string) bool { return strings.Contains(screen, s) }
}

func absent(s string) func(string) bool {
	return func(screen string) bool { return !strings.Contains(screen, s) }
}

func matches(expr string) func(string) bool {
	re := regexp.MustCompile(expr)
	return re.MatchString
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// processesRunning lists the pids whose command line starts with path.
func processesRunning(path string) []string {
	var pids []string
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	for _, d := range dirs {
		b, err := os.ReadFile(filepath.Join(d, "cmdline"))
		if err != nil {
			continue
		}
		if argv0, _, _ := bytes.Cut(b, []byte{0}); string(argv0) == path {
			pids = append(pids, filepath.Base(d))
		}
	}
	return pids
}

// waitExit waits for the program to end and returns its exit code.
func (tm *tmux) waitExit() string {
	tm.t.Helper()
	path := filepath.Join(tm.tmp, "exit-code")
	deadline := time.Now().Add(e2eWait)
	for {
		if b, err := os.ReadFile(path); err == nil && len(bytes.TrimSpace(b)) > 0 {
			return strings.TrimSpace(string(b))
		}
		if time.Now().After(deadline) {
			tm.t.Fatalf("the program did not end; screen:\n%s", tm.capture())
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// e2e is one program under tmux with its own base and work directories.
type e2e struct {
	*tmux
	tmp, base, work string
	argv            []string // the program and its model flag, without the model
	env             []string
}

// newE2E prepares directories, the scripted model and the binary, but
// starts nothing.
func newE2E(t *testing.T, script string) *e2e {
	t.Helper()
	if testing.Short() {
		t.Skip("builds binaries and drives tmux")
	}
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed (apt-get install -y tmux); the TUI end-to-end test needs it")
	}
	root := repoRoot(t)
	tmp := t.TempDir()
	e := &e2e{tmp: tmp, base: filepath.Join(tmp, "base"), work: filepath.Join(tmp, "work")}
	e.argv = tuiCommand(t, root, tmp)
	writeFile(t, filepath.Join(e.work, "script.jsonl"), script)
	e.env = []string{"HOME=" + filepath.Join(tmp, "home"), "SYNAPS_BASE_DIR=" + e.base, "TERM=xterm-256color"}
	return e
}

// start runs the program (with extra arguments after the model) in a
// cols x rows pane.
func (e *e2e) start(t *testing.T, cols, rows int, args ...string) {
	t.Helper()
	bin, _ := exec.LookPath("tmux")
	run := filepath.Join(e.tmp, fmt.Sprintf("run%d", time.Now().UnixNano()))
	if err := os.MkdirAll(run, 0o755); err != nil {
		t.Fatal(err)
	}
	argv := append(append(append([]string(nil), e.argv...), "script:"+filepath.Join(e.work, "script.jsonl")), args...)
	e.tmux = startTmuxSized(t, bin, run, e.work, cols, rows, e.env, argv)
}

// sessionText is the session file of id, for what the session kept.
func (e *e2e) sessionText(t *testing.T, id string) string {
	t.Helper()
	return readFile(t, filepath.Join(e.base, "sessions", id+".jsonl"))
}

// resumeID reads the session id from the hint printed at exit.
func resumeID(t *testing.T, screen string) string {
	t.Helper()
	m := regexp.MustCompile(`resume this session with: synaps --resume (\S+)`).FindStringSubmatch(screen)
	if m == nil {
		t.Fatalf("no resume hint after exit; screen:\n%s", screen)
	}
	return m[1]
}

// TestTUIInterrupt: ctrl+c with text typed clears the text and the turn
// goes on; esc stops the turn and the session keeps the partial answer;
// two ctrl+c on an empty idle prompt quit and print how to resume.
func TestTUIInterrupt(t *testing.T) {
	e := newE2E(t, `{"text":"Partial answer then a very long pause","delay_ms":600000}
`)
	if !strings.Contains(e.argv[0], "synaps") {
		t.Skip("needs the synaps binary")
	}
	e.start(t, 100, 30, "--no-extensions")
	e.waitFor("the prompt", contains("Ask anything"), contains("tokens"))
	e.send("talk slowly")
	e.waitFor("the answer to start", matches(`(?m)^Partial\s*$`), contains("thinking"))

	e.keys("-l", "draft text")
	e.waitFor("the typed text", matches(`(?m)^› draft text\s*$`))
	e.keys("C-c")
	e.waitFor("the text cleared, the turn still running",
		contains("Ask anything"), absent("draft text"), contains("thinking (esc to interrupt)"), absent("cancelled"))

	e.keys("Escape")
	e.waitFor("the turn interrupted", matches(`(?m)^· cancelled\s*$`), absent("thinking"))
	e.keys("C-c", "C-c") // the hint between them is TestModelCtrlCIdleQuits's
	if code := e.waitExit(); code != "0" {
		t.Errorf("exit code %s", code)
	}
	id := resumeID(t, e.capture())
	if got := e.sessionText(t, id); !strings.Contains(got, `"role":"assistant","content":[{"type":"text","text":"Partial"}]`) {
		t.Errorf("the session lacks the partial answer:\n%s", got)
	}
}

// TestTUITypingDuringExtensionStart: the UI is up while an extension is
// slow to start and names it; a message sent meanwhile does not wait for
// a guard that only judges tool calls (its start cannot change the
// request), so it is answered while the guard still starts.
func TestTUITypingDuringExtensionStart(t *testing.T) {
	e := newE2E(t, `{"text":"Heard you loud and clear."}
`)
	guard := goBuild(t, repoRoot(t), filepath.Join(e.tmp, "guardext"), "./internal/tui/testdata/guardext")
	release := filepath.Join(e.tmp, "release")
	writeFile(t, filepath.Join(e.base, "plugins", "slowguard", ".synaps-plugin", "plugin.json"), fmt.Sprintf(
		`{"name":"slowguard","version":"0.1.0","extension":{"command":%q,"args":["--wait-for",%q],"permissions":["hooks.before_tool_call"]}}`, guard, release))
	if tr := os.Getenv("E2E_TEA_TRACE"); tr != "" {
		e.env = append(e.env, "TEA_TRACE="+tr)
	}
	e.start(t, 100, 30)
	e.waitFor("the extension starting", contains("starting extensions: slowguard"))
	e.send("hello there")
	e.waitFor("the message answered while the guard starts",
		matches(`(?m)^› hello there\s*$`), contains("Heard you loud and clear."), absent("queued ›"), contains("starting extensions: slowguard"))
	writeFile(t, release, "go")
	e.waitFor("the guard started", absent("starting extensions: slowguard"))
}

// TestTUIResumeShowsHistory: --resume opens on the earlier conversation,
// tool calls included, not on an empty screen.
func TestTUIResumeShowsHistory(t *testing.T) {
	e := newE2E(t, `{"text":"Let me **check**.","tool_calls":[{"name":"bash","input":{"command":"echo from-the-tool"}}]}
{"text":"All checked, the tool said hello."}
`)
	e.start(t, 100, 30, "--no-extensions")
	e.waitFor("the prompt", contains("Ask anything"))
	e.send("first question")
	e.waitFor("the answer", contains("All checked, the tool said hello."))
	e.send("/quit")
	e.waitExit()
	id := resumeID(t, e.capture())

	e.start(t, 100, 30, "--no-extensions", "--resume", id)
	e.waitFor("the earlier conversation",
		matches(`(?m)^› first question\s*$`),
		contains("Let me check."),
		matches(`(?m)^✓ bash echo from-the-tool\s*$`),
		matches(`(?m)^  │ from-the-tool\s*$`),
		contains("All checked, the tool said hello."),
		contains("resumed"))
	e.send("and now?") // a new process: the script plays from its first turn
	e.waitFor("the conversation going on", matches(`(?m)^✓ bash echo from-the-tool · `))
}

// TestTUITallOutputAndResize: an answer three times the screen's height
// leaves the scrollback and the screen as a fresh redraw would show
// them — every line once, one input, one status line, no gap — and so
// does a resize, after which the transcript is laid out again.
func TestTUITallOutputAndResize(t *testing.T) {
	const rows = 24
	var items []string
	for i := 1; i <= 3*rows; i++ {
		items = append(items, fmt.Sprintf("- item %02d of the tall answer", i))
	}
	answer, _ := json.Marshal(map[string]string{"text": "A tall answer:\n\n" + strings.Join(items, "\n") + "\n\nThe end."})
	var words []string
	for i := 1; i <= 40; i++ {
		words = append(words, fmt.Sprintf("w%02d", i))
	}
	slow, _ := json.Marshal(map[string]any{"text": "Slowly: " + strings.Join(words, "\n\n") + "\n\nThe end.", "delay_ms": 40})
	e := newE2E(t, string(answer)+"\n"+string(slow)+"\n")
	e.start(t, 80, rows, "--no-extensions")
	e.waitFor("the prompt", contains("Ask anything"))
	e.send("tall please")
	fresh := func(screen string) bool {
		lines := strings.Split(strings.TrimRight(screen, "\n "), "\n")
		if !strings.HasPrefix(lines[0], "synaps ") {
			return false // something before the header: stale output
		}
		for i := 1; i <= 3*rows; i++ {
			if strings.Count(screen, fmt.Sprintf("item %02d of", i)) != 1 {
				return false
			}
		}
		blank := 0
		for _, l := range lines {
			if blank = blank + 1; strings.TrimSpace(l) != "" {
				blank = 0
			}
			if blank > 1 {
				return false // a gap no rendering makes
			}
		}
		last := lines[len(lines)-1]
		return strings.Count(screen, "Ask anything") == 1 && strings.Count(screen, "script:") == 1 &&
			strings.Contains(last, "script:") && strings.Contains(lines[len(lines)-2], "Ask anything") &&
			strings.Count(screen, "tall please") == 1 && strings.Contains(lines[len(lines)-3], "The end.") &&
			strings.Count(screen, "synaps 0") == 1
	}
	e.waitFor("the tall answer, cleanly", fresh)
	if out, err := e.run("resize-window", "-t", "tui", "-x", "60", "-y", "18"); err != nil {
		t.Fatalf("resize: %v\n%s", err, out)
	}
	e.waitFor("the transcript redrawn for 60x18", fresh)
	if out, err := e.run("resize-window", "-t", "tui", "-x", "100", "-y", "30"); err != nil {
		t.Fatalf("resize: %v\n%s", err, out)
	}
	e.waitFor("the transcript redrawn for 100x30", fresh)

	// A resize while an answer streams (the view is tall then).
	e.send("slowly")
	e.waitFor("the answer streaming", matches(`(?m)^\s*w10\s*$`))
	if out, err := e.run("resize-window", "-t", "tui", "-x", "70", "-y", "20"); err != nil {
		t.Fatalf("resize: %v\n%s", err, out)
	}
	e.waitFor("the streamed answer, cleanly", fresh, func(screen string) bool {
		for i := 1; i <= 40; i++ {
			if strings.Count(screen, fmt.Sprintf("w%02d", i)) != 1 {
				return false
			}
		}
		return strings.Count(screen, "The end.") == 2
	})
}

// TestTUICtrlGEditor: ctrl+g opens $EDITOR on the input; what the editor
// saves is the input when it exits.
func TestTUICtrlGEditor(t *testing.T) {
	e := newE2E(t, `{"text":"x"}`+"\n")
	editor := filepath.Join(e.tmp, "editor.sh")
	writeFile(t, editor, "#!/bin/sh\nprintf 'was: %s, now edited' \"$(cat \"$1\")\" > \"$1\"\n")
	if err := os.Chmod(editor, 0o755); err != nil {
		t.Fatal(err)
	}
	e.env = append(e.env, "EDITOR="+editor, "VISUAL=")
	e.start(t, 100, 30, "--no-extensions")
	e.waitFor("the prompt", contains("Ask anything"))
	e.keys("-l", "draft")
	e.waitFor("the draft", matches(`(?m)^› draft\s*$`))
	e.keys("C-g")
	e.waitFor("the edited input", matches(`(?m)^› was: draft, now edited\s*$`))
}

// TestTUIWithoutModel: with no model configured the UI opens, says how
// to configure one, and commands that need no model work.
func TestTUIWithoutModel(t *testing.T) {
	e := newE2E(t, `{"text":"x"}`+"\n")
	if !strings.Contains(e.argv[0], "synaps") {
		t.Skip("needs the synaps binary")
	}
	bin, _ := exec.LookPath("tmux")
	e.tmux = startTmuxSized(t, bin, e.tmp, e.work, 100, 30, e.env, []string{e.argv[0], "--no-extensions"})
	e.waitFor("how to configure a model", contains("no model configured: set ANTHROPIC_API_KEY"), contains("choose one now with"), contains("no model · tokens"))
	e.send("/help")
	e.waitFor("/help", matches(`(?m)^/extensions reload\s+restart every extension`))
	e.send("hello")
	e.waitFor("the message answered with how to configure", matches(`(?m)^error: no model configured`))
	e.send("/model script:script.jsonl")
	e.waitFor("the model chosen", matches(`(?m)^model: script:script.jsonl`))
	e.send("now?")
	e.waitFor("an answer", matches(`(?m)^  x\s*$`))
}

// TestTUICtrlDTwiceQuits: one ctrl+d on an empty prompt does not end the
// session but says how to; a second one quits with the resume hint. (The
// 2 s window between them is TestModelCtrlDTwiceQuits's: on a loaded
// machine the test presses again until the program ends.)
func TestTUICtrlDTwiceQuits(t *testing.T) {
	e := newE2E(t, `{"text":"Noted."}`+"\n")
	if !strings.Contains(e.argv[0], "synaps") {
		t.Skip("needs the synaps binary")
	}
	e.start(t, 100, 30, "--no-extensions")
	e.waitFor("the prompt", contains("Ask anything"), contains("tokens"))
	e.send("remember this")
	// The turn over, not only its text on the screen: a ctrl+d while it
	// still ends would meet a busy prompt (a loaded machine showed it).
	e.waitFor("the answer, the turn over", matches(`(?m)^  Noted\.\s*$`), absent("esc to interrupt"))
	e.keys("C-d")
	e.waitFor("the hint after one ctrl+d", contains("press ctrl+d again to quit"))
	exited := func() bool {
		_, err := os.Stat(filepath.Join(e.tmux.tmp, "exit-code"))
		return err == nil
	}
	if exited() {
		t.Fatal("one ctrl+d on an empty prompt ended the program")
	}
	deadline := time.Now().Add(e2eWait)
	for !exited() {
		if time.Now().After(deadline) {
			t.Fatalf("ctrl+d twice did not quit; screen:\n%s", e.capture())
		}
		e.keys("C-d")
		time.Sleep(300 * time.Millisecond)
	}
	if code := e.waitExit(); code != "0" {
		t.Errorf("exit code %s", code)
	}
	resumeID(t, e.capture())
}
