package examples_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/synaps-cli/synaps/internal/app"
	"github.com/synaps-cli/synaps/internal/conformance"
	"github.com/synaps-cli/synaps/internal/contract"
	"github.com/synaps-cli/synaps/internal/extension"
	"github.com/synaps-cli/synaps/internal/hook"
	"github.com/synaps-cli/synaps/internal/tool"
)

// examplesDir is <repo>/examples/extensions, found from `go env GOMOD`.
var examplesDir string

// examples are the example plugins and the program each needs on PATH
// ("" for none). TestEveryExampleIsListed keeps this in step with the
// directory.
var examples = []struct{ dir, needs string }{
	{"bash-guard", ""},
	{"context-injector", "node"},
	{"hello-ext", "python3"},
	{"output-redactor", "python3"},
	{"policy-guard", "python3"},
}

// TestMain builds bash-guard into its example directory, where its
// manifest ("command": "./bash-guard") expects it, and removes it at the
// end unless it was there before.
func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	gomod := strings.TrimSpace(string(out))
	if err != nil || gomod == "" || gomod == os.DevNull {
		fmt.Fprintf(os.Stderr, "examples_test: cannot find the module root with `go env GOMOD` (%v)\n", err)
		return 1
	}
	root := filepath.Dir(gomod)
	examplesDir = filepath.Join(root, "examples", "extensions")
	bin := filepath.Join(examplesDir, "bash-guard", "bash-guard")
	_, statErr := os.Stat(bin)
	build := exec.Command("go", "build", "-o", bin, "./examples/extensions/bash-guard")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "examples_test: building bash-guard: %v\n%s", err, out)
		return 1
	}
	if statErr != nil { // ours: leave the tree as it was
		defer os.Remove(bin)
	}
	return m.Run()
}

// baseEnv is what synaps passes to every extension.
var baseEnv = []string{"PATH", "HOME", "LANG", "LC_ALL", "TERM", "TMPDIR", "XDG_RUNTIME_DIR"}

// env is a getenv for the host: the base variables from this process and
// the given settings (SYNAPS_EXTENSION_<ID>_<KEY>), nothing else, so a
// developer's own SYNAPS_EXTENSION_* variables cannot change the results.
func env(settings map[string]string) func(string) string {
	return func(k string) string {
		if v, ok := settings[k]; ok {
			return v
		}
		if slices.Contains(baseEnv, k) {
			return os.Getenv(k)
		}
		return ""
	}
}

func needs(t *testing.T, program string) {
	t.Helper()
	if program == "" {
		return
	}
	if _, err := exec.LookPath(program); err != nil {
		t.Skipf("%s is not installed", program)
	}
}

func example(dir string) string { return filepath.Join(examplesDir, dir) }

// startHost links each plugin dir (id → source) into a fresh base dir's
// plugins/ (the dev-mode install) and starts a host on it. The host is shut
// down when the test ends.
func startHost(t *testing.T, plugins map[string]string, getenv func(string) string) (*extension.Host, string) {
	t.Helper()
	base := t.TempDir()
	if err := os.MkdirAll(filepath.Join(base, "plugins"), 0o755); err != nil {
		t.Fatal(err)
	}
	for id, src := range plugins {
		if err := os.Symlink(src, filepath.Join(base, "plugins", id)); err != nil {
			t.Fatal(err)
		}
	}
	return hostOn(t, base, getenv), base
}

// hostOn starts a host on base; it is shut down when the test ends.
func hostOn(t *testing.T, base string, getenv func(string) string) *extension.Host {
	t.Helper()
	h := extension.NewHost(extension.Options{BaseDir: base, Version: "examples-test", Getenv: getenv})
	t.Cleanup(h.Shutdown)
	if err := h.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	return h
}

func status(t *testing.T, h *extension.Host, id string) extension.Status {
	t.Helper()
	for _, s := range h.Statuses() {
		if s.ID == id {
			return s
		}
	}
	t.Fatalf("no status for %s", id)
	return extension.Status{}
}

// requireLoaded fails the test unless the plugin is loaded without warnings.
func requireLoaded(t *testing.T, h *extension.Host, id string) {
	t.Helper()
	if st := status(t, h, id); st.State != extension.StateLoaded || len(st.Warnings) > 0 {
		logs, _ := h.Logs(id, 20)
		t.Fatalf("%s: state %s, error %q, warnings %q; log:\n%s", id, st.State, st.Error, st.Warnings, strings.Join(logs, "\n"))
	}
}

var (
	bashTool  = tool.Spec{Name: "bash", RuntimeName: "bash", Source: "builtin"}
	readTool  = tool.Spec{Name: "read", RuntimeName: "read", Source: "builtin"}
	writeTool = tool.Spec{Name: "write", RuntimeName: "write", Source: "builtin"}
	editTool  = tool.Spec{Name: "edit", RuntimeName: "edit", Source: "builtin"}
	helloTool = tool.Spec{Name: "hello-ext_hello", RuntimeName: "hello-ext:hello", Source: "extension:hello-ext"}
)

func bashInput(command string) json.RawMessage {
	b, _ := json.Marshal(map[string]string{"command": command})
	return b
}

// approver is an interactive user who answers every confirm with yes or no.
type approver struct {
	yes  bool
	asks [][]hook.Confirm
}

func (a *approver) Confirm(_ context.Context, _ string, msgs []hook.Confirm) bool {
	a.asks = append(a.asks, msgs)
	return a.yes
}

// ---- synaps extensions test ----------------------------------------------

func TestEveryExampleIsListed(t *testing.T) {
	entries, err := os.ReadDir(examplesDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		if !slices.ContainsFunc(examples, func(x struct{ dir, needs string }) bool { return x.dir == e.Name() }) {
			t.Errorf("examples/extensions/%s is not in this test's examples list, so nothing checks it", e.Name())
		}
	}
}

// Every example passes `synaps extensions test` with no failure and no
// warning: they are what authors copy.
func TestConformance(t *testing.T) {
	calls := map[string]map[string]json.RawMessage{
		"hello-ext": {"hello": json.RawMessage(`{"name":"Ada"}`)},
	}
	for _, ex := range examples {
		t.Run(ex.dir, func(t *testing.T) {
			needs(t, ex.needs)
			t.Parallel()
			r := conformance.Run(context.Background(), example(ex.dir), conformance.Options{
				Calls: calls[ex.dir], Getenv: env(nil),
			})
			var report bytes.Buffer
			for _, c := range r.Checks {
				fmt.Fprintf(&report, "[%s] %s — %s\n", c.Status, c.Name, c.Detail)
			}
			if !r.Passed {
				t.Fatalf("conformance failed:\n%sstderr:\n%s", report.String(), strings.Join(r.Stderr, "\n"))
			}
			for _, c := range r.Checks {
				if c.Status != conformance.CheckPass {
					t.Errorf("check %q is %s, want pass:\n%s", c.Name, c.Status, report.String())
				}
			}
			if ex.dir == "hello-ext" && !strings.Contains(report.String(), "Hello, Ada!") {
				t.Errorf("the --call fixture was not used:\n%s", report.String())
			}
		})
	}
}

// ---- each example through a real host --------------------------------------

func TestBashGuard(t *testing.T) {
	h, _ := startHost(t, map[string]string{"bash-guard": example("bash-guard")}, env(nil))
	requireLoaded(t, h, "bash-guard")
	ctx := context.Background()

	d := h.BeforeToolCall(ctx, bashTool, bashInput("rm -rf /"), "s1", nil)
	if !d.Blocked || d.BlockedBy != "bash-guard" ||
		!strings.HasPrefix(d.Reason, "Tool call blocked by extension bash-guard: ") ||
		!strings.Contains(d.Reason, `"rm -rf /"`) || !strings.Contains(d.Reason, "rm-root-home-parent") {
		t.Errorf("rm -rf /: %+v", d)
	}

	// git push asks; the chain result carries the question.
	d = h.RunHook(ctx, hook.Event{Kind: contract.HookBeforeToolCall, ToolName: "bash", ToolRuntimeName: "bash",
		ToolInput: bashInput("git push origin main"), SessionID: "s1"})
	if d.Blocked || len(d.Confirms) != 1 || d.Confirms[0].Extension != "bash-guard" ||
		!strings.Contains(d.Confirms[0].Message, "git push publishes commits") {
		t.Errorf("git push origin main: %+v", d)
	}
	// Settled: yes runs it, no blocks it, and with no user to ask it is blocked.
	yes := &approver{yes: true}
	if d := h.BeforeToolCall(ctx, bashTool, bashInput("git push origin main"), "s1", yes); d.Blocked || len(yes.asks) != 1 {
		t.Errorf("approved git push: %+v (asked %d times)", d, len(yes.asks))
	}
	if d := h.BeforeToolCall(ctx, bashTool, bashInput("git push origin main"), "s1", &approver{}); !d.Blocked || !strings.Contains(d.Reason, "declined") {
		t.Errorf("declined git push: %+v", d)
	}
	if d := h.BeforeToolCall(ctx, bashTool, bashInput("git push origin main"), "s1", nil); !d.Blocked {
		t.Errorf("git push with no interactive user should block: %+v", d)
	}

	for _, cmd := range []string{"ls -la", `echo "rm -rf /"`, "go test ./..."} {
		if d := h.BeforeToolCall(ctx, bashTool, bashInput(cmd), "s1", nil); d.Blocked || len(d.Confirms) > 0 {
			t.Errorf("%s should run: %+v", cmd, d)
		}
	}
	// Only bash is guarded.
	if d := h.BeforeToolCall(ctx, readTool, json.RawMessage(`{"path":"rm -rf /"}`), "s1", nil); d.Blocked || len(d.Confirms) > 0 {
		t.Errorf("read is not bash-guard's business: %+v", d)
	}
}

func TestContextInjector(t *testing.T) {
	needs(t, "node")
	ctx := context.Background()
	message := "How do I release?"
	beforeMessage := hook.Event{Kind: contract.HookBeforeMessage, Message: &message, SessionID: "s1"}
	sessionStart := hook.Event{Kind: contract.HookOnSessionStart, SessionID: "s1"}
	inject := func(t *testing.T, d hook.Decision) string {
		t.Helper()
		if len(d.Injects) != 1 || d.Injects[0].Extension != "context-injector" || d.Blocked {
			t.Fatalf("want one inject from context-injector, got %+v", d)
		}
		return d.Injects[0].Content
	}

	t.Run("notes_file and project_dir", func(t *testing.T) {
		tmp := t.TempDir()
		notes := filepath.Join(tmp, "NOTES.md")
		if err := os.WriteFile(notes, []byte("Releases go through `make release`.\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		project := filepath.Join(tmp, "demo")
		for name, text := range map[string]string{
			"go.mod": "module example.com/demo\n\ngo 1.26\n", "README.md": "# demo\n", ".git/HEAD": "ref: refs/heads/main\n",
		} {
			os.MkdirAll(filepath.Dir(filepath.Join(project, name)), 0o755)
			if err := os.WriteFile(filepath.Join(project, name), []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		h, _ := startHost(t, map[string]string{"context-injector": example("context-injector")}, env(map[string]string{
			"SYNAPS_EXTENSION_CONTEXT_INJECTOR_NOTES_FILE":  notes,
			"SYNAPS_EXTENSION_CONTEXT_INJECTOR_PROJECT_DIR": project,
		}))
		requireLoaded(t, h, "context-injector")

		d := h.RunHook(ctx, beforeMessage)
		if got := inject(t, d); !strings.Contains(got, "Releases go through `make release`.") {
			t.Errorf("before_message inject = %q, want the notes file", got)
		}
		if text := d.InjectText(); !strings.Contains(text, `<extension-context plugin="context-injector">`) || !strings.Contains(text, "make release") {
			t.Errorf("framed inject = %q", text)
		}
		// The file is read on every message.
		if err := os.WriteFile(notes, []byte("Releases are frozen this week.\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if got := inject(t, h.RunHook(ctx, beforeMessage)); !strings.Contains(got, "frozen this week") {
			t.Errorf("after editing the notes file, inject = %q", got)
		}

		got := inject(t, h.RunHook(ctx, sessionStart))
		for _, want := range []string{"Project: demo", "Go module example.com/demo", "on branch main", "README.md", "go.mod",
			"Prefer small, reviewable changes"} {
			if !strings.Contains(got, want) {
				t.Errorf("on_session_start inject lacks %q:\n%s", want, got)
			}
		}
	})

	t.Run("defaults", func(t *testing.T) {
		h, _ := startHost(t, map[string]string{"context-injector": example("context-injector")}, env(nil))
		requireLoaded(t, h, "context-injector")
		for _, ev := range []hook.Event{beforeMessage, sessionStart} {
			if got := inject(t, h.RunHook(ctx, ev)); !strings.Contains(got, "Prefer small, reviewable changes") {
				t.Errorf("%s inject = %q, want the default notes", ev.Kind, got)
			}
		}
	})

	t.Run("notes_file relative to the plugin root, or unreadable", func(t *testing.T) {
		h, _ := startHost(t, map[string]string{"context-injector": example("context-injector")}, env(map[string]string{
			"SYNAPS_EXTENSION_CONTEXT_INJECTOR_NOTES_FILE": "README.md",
		}))
		if got := inject(t, h.RunHook(ctx, beforeMessage)); !strings.Contains(got, "# context-injector") {
			t.Errorf("notes_file README.md should be the plugin's README, inject = %.200q", got)
		}
		h2, _ := startHost(t, map[string]string{"context-injector": example("context-injector")}, env(map[string]string{
			"SYNAPS_EXTENSION_CONTEXT_INJECTOR_NOTES_FILE": filepath.Join(t.TempDir(), "missing.md"),
			"SYNAPS_EXTENSION_CONTEXT_INJECTOR_NOTES":      "Use the staging cluster.",
		}))
		if got := inject(t, h2.RunHook(ctx, beforeMessage)); !strings.Contains(got, "Use the staging cluster.") {
			t.Errorf("an unreadable notes_file falls back to notes, inject = %q", got)
		}
	})
}

func TestOutputRedactor(t *testing.T) {
	needs(t, "python3")
	const secret = "AKIAIOSFODNN7EXAMPLE"
	h, base := startHost(t, map[string]string{"output-redactor": example("output-redactor")}, env(nil))
	requireLoaded(t, h, "output-redactor")
	ctx := context.Background()
	input := bashInput("cat .env")

	d := h.AfterToolCall(ctx, bashTool, input, "AWS_ACCESS_KEY_ID="+secret+"\nregion=us-east-1\n", false, "s1")
	if d.Output == nil {
		t.Fatalf("output with an AWS key id was not replaced: %+v", d)
	}
	if strings.Contains(*d.Output, secret) || !strings.Contains(*d.Output, "[REDACTED:aws-access-key-id]") ||
		!strings.Contains(*d.Output, "region=us-east-1") || !slices.Equal(d.ReplacedBy, []string{"output-redactor"}) {
		t.Errorf("redacted output = %q, replaced by %v", *d.Output, d.ReplacedBy)
	}

	clean := "total 8\n-rw-r--r-- 1 me me 269 main.py\n"
	if d := h.AfterToolCall(ctx, bashTool, input, clean, false, "s1"); d.Output != nil || len(d.ReplacedBy) > 0 {
		t.Errorf("clean output was replaced: %q", *d.Output)
	}

	h.Shutdown()
	// The record of the replace is metadata; neither it nor the log holds the secret.
	intercept, err := os.ReadFile(filepath.Join(base, "extensions", "intercept.jsonl"))
	if err != nil || !bytes.Contains(intercept, []byte(`"output-redactor"`)) || !bytes.Contains(intercept, []byte(`"replace"`)) {
		t.Errorf("intercept.jsonl (%v):\n%s", err, intercept)
	}
	logs, _ := os.ReadFile(filepath.Join(base, "extensions", "logs", "output-redactor.log"))
	if bytes.Contains(intercept, []byte(secret)) || bytes.Contains(logs, []byte(secret)) {
		t.Errorf("the secret leaked into intercept.jsonl or the log")
	}
}

// The redactor's own suite (python3 test_redactor.py), so CI runs it.
func TestOutputRedactorPythonSuite(t *testing.T) {
	needs(t, "python3")
	cmd := exec.Command("python3", filepath.Join(example("output-redactor"), "test_redactor.py"))
	cmd.Dir = t.TempDir() // it must not depend on the working directory
	cmd.Env = append(os.Environ(), "PYTHONDONTWRITEBYTECODE=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("test_redactor.py: %v\n%s", err, out)
	}
}

func TestPolicyGuard(t *testing.T) {
	needs(t, "python3")
	ctx := context.Background()
	h, _ := startHost(t, map[string]string{"policy-guard": example("policy-guard")}, env(nil))
	requireLoaded(t, h, "policy-guard")

	for _, c := range []struct {
		spec    tool.Spec
		input   string
		blocked string // "" allowed, else a substring of the reason
	}{
		{writeTool, `{"path":"../x","content":"hi"}`, "'..'"},
		{writeTool, `{"path":"/etc/passwd","content":"hi"}`, "absolute"},
		{editTool, `{"path":"src/../../x","old_string":"a","new_string":"b"}`, "'..'"},
		{editTool, `{"path":"~/.bashrc","old_string":"a","new_string":"b"}`, "home directory"},
		{writeTool, `{"content":"hi"}`, "no path"},
		{writeTool, `{"path":"src/main.go","content":"package main"}`, ""},
		{editTool, `{"path":"./README.md","old_string":"a","new_string":"b"}`, ""},
		{readTool, `{"path":"/etc/hosts"}`, ""},
		{bashTool, `{"command":"ls"}`, ""},
		{helloTool, `{"name":"Ada"}`, "not in allowed_tools"},
	} {
		d := h.BeforeToolCall(ctx, c.spec, json.RawMessage(c.input), "s1", nil)
		switch {
		case c.blocked == "" && d.Blocked:
			t.Errorf("%s %s should be allowed: %s", c.spec.Name, c.input, d.Reason)
		case c.blocked != "" && (!d.Blocked || d.BlockedBy != "policy-guard" || !strings.Contains(d.Reason, c.blocked)):
			t.Errorf("%s %s should be blocked by policy-guard with %q: %+v", c.spec.Name, c.input, c.blocked, d)
		}
	}

	// allowed_tools from the environment: the extension tool by its runtime
	// name, and bash no longer.
	h2, _ := startHost(t, map[string]string{"policy-guard": example("policy-guard")}, env(map[string]string{
		"SYNAPS_EXTENSION_POLICY_GUARD_ALLOWED_TOOLS": "read, hello-ext:hello",
	}))
	if d := h2.BeforeToolCall(ctx, helloTool, json.RawMessage(`{"name":"Ada"}`), "s1", nil); d.Blocked {
		t.Errorf("hello-ext:hello is allowed now: %s", d.Reason)
	}
	if d := h2.BeforeToolCall(ctx, bashTool, bashInput("ls"), "s1", nil); !d.Blocked || !strings.Contains(d.Reason, "bash is not in allowed_tools (hello-ext:hello, read)") {
		t.Errorf("bash is not allowed now: %+v", d)
	}
}

// policy-guard is fail-closed: when it cannot judge, the calls it guards
// are blocked. The same broken copy with failure_policy "open" lets them
// through, which is what makes the manifest line matter.
func TestPolicyGuardFailsClosed(t *testing.T) {
	needs(t, "python3")
	ctx := context.Background()
	readReadme := json.RawMessage(`{"path":"README.md"}`)

	// broken copies policy-guard with its manifest edited by edit.
	broken := func(t *testing.T, edit func(ext map[string]any)) string {
		t.Helper()
		dst := filepath.Join(t.TempDir(), "policy-guard")
		if out, err := exec.Command("cp", "-r", example("policy-guard"), dst).CombinedOutput(); err != nil {
			t.Fatalf("cp: %v %s", err, out)
		}
		file := filepath.Join(dst, ".synaps-plugin", "plugin.json")
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(data, &m); err != nil {
			t.Fatal(err)
		}
		edit(m["extension"].(map[string]any))
		data, _ = json.MarshalIndent(m, "", "  ")
		if err := os.WriteFile(file, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return dst
	}

	t.Run("cannot start", func(t *testing.T) {
		dir := broken(t, func(ext map[string]any) { ext["entry_point"] = "python3 no-such-file.py" })
		h, _ := startHost(t, map[string]string{"policy-guard": dir}, env(nil))
		if st := status(t, h, "policy-guard"); st.State != extension.StateFailed {
			t.Fatalf("a policy-guard that cannot start should be failed: %+v", st)
		}
		d := h.BeforeToolCall(ctx, readTool, readReadme, "s1", nil)
		if !d.Blocked || d.BlockedBy != "policy-guard" ||
			!strings.HasPrefix(d.Reason, "Tool call blocked by extension policy-guard: the extension failed") ||
			!strings.Contains(d.Reason, "its failure_policy is closed") {
			t.Errorf("read while policy-guard is down: %+v", d)
		}

		open := broken(t, func(ext map[string]any) {
			ext["entry_point"] = "python3 no-such-file.py"
			ext["failure_policy"] = "open"
		})
		h2, _ := startHost(t, map[string]string{"policy-guard": open}, env(nil))
		if d := h2.BeforeToolCall(ctx, readTool, readReadme, "s1", nil); d.Blocked {
			t.Errorf("with failure_policy open a dead guard is skipped, got %+v", d)
		}
	})

	t.Run("invalid config", func(t *testing.T) {
		h, _ := startHost(t, map[string]string{"policy-guard": example("policy-guard")}, env(map[string]string{
			"SYNAPS_EXTENSION_POLICY_GUARD_ALLOWED_TOOLS": "read,rm -rf",
		}))
		st := status(t, h, "policy-guard")
		if st.State != extension.StateFailed || !strings.Contains(st.Error, "allowed_tools") {
			t.Fatalf("policy-guard with an invalid allowed_tools should fail to start, naming the setting: %+v", st)
		}
		if d := h.BeforeToolCall(ctx, readTool, readReadme, "s1", nil); !d.Blocked || !strings.Contains(d.Reason, "failure_policy is closed") {
			t.Errorf("read while policy-guard refuses its config: %+v", d)
		}
	})
}

// All the examples installed the way the README says
// (`synaps extensions install ./DIR`, a copy), in one host, in plugin-id
// order: each installs and loads cleanly and judges only what it is about.
func TestAllTogether(t *testing.T) {
	ctx := context.Background()
	base := t.TempDir()
	for _, ex := range examples {
		needs(t, ex.needs)
		res, err := app.Install(ctx, base, example(ex.dir), app.InstallOptions{})
		if err != nil {
			t.Fatalf("install %s: %v", ex.dir, err)
		}
		if res.ID != ex.dir || len(res.Warnings) > 0 {
			t.Errorf("install %s: id %s, warnings %q", ex.dir, res.ID, res.Warnings)
		}
	}
	h := hostOn(t, base, env(nil))
	for _, ex := range examples {
		requireLoaded(t, h, ex.dir)
	}
	if d := h.BeforeToolCall(ctx, bashTool, bashInput("rm -rf ~"), "s1", nil); !d.Blocked || d.BlockedBy != "bash-guard" {
		t.Errorf("rm -rf ~: %+v", d)
	}
	if d := h.BeforeToolCall(ctx, writeTool, json.RawMessage(`{"path":"../x","content":""}`), "s1", nil); !d.Blocked || d.BlockedBy != "policy-guard" {
		t.Errorf("write ../x: %+v", d)
	}
	if d := h.BeforeToolCall(ctx, bashTool, bashInput("ls -la"), "s1", nil); d.Blocked || len(d.Confirms) > 0 {
		t.Errorf("ls -la: %+v", d)
	}
	// hello-ext's tool runs only if policy-guard allows it: it does not by default.
	if d := h.BeforeToolCall(ctx, helloTool, json.RawMessage(`{"name":"Ada"}`), "s1", nil); !d.Blocked || d.BlockedBy != "policy-guard" {
		t.Errorf("hello-ext_hello: %+v", d)
	}
	if d := h.AfterToolCall(ctx, bashTool, bashInput("env"), "TOKEN=ghp_"+strings.Repeat("a1B2", 9)+"\n", false, "s1"); d.Output == nil || strings.Contains(*d.Output, "ghp_") {
		t.Errorf("after_tool_call with a GitHub token: %+v", d)
	}
	msg := "hi"
	if d := h.RunHook(ctx, hook.Event{Kind: contract.HookBeforeMessage, Message: &msg, SessionID: "s1"}); len(d.Injects) != 1 {
		t.Errorf("before_message injects: %+v", d.Injects)
	}
}
