package agent

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"go.uber.org/goleak"

	"github.com/synaps-cli/synaps/internal/extension"
	"github.com/synaps-cli/synaps/internal/extension/exttest"
	"github.com/synaps-cli/synaps/internal/hook"
	"github.com/synaps-cli/synaps/internal/llm"
	"github.com/synaps-cli/synaps/internal/llm/script"
	"github.com/synaps-cli/synaps/internal/session"
	"github.com/synaps-cli/synaps/internal/tool"
	"github.com/synaps-cli/synaps/internal/tool/builtin"
)

// End-to-end tests of the loop: the script model, real built-in tools, real
// extension processes (the Go fake, and the Python hello-ext), real session
// files.

func TestMain(m *testing.M) {
	exttest.Main()
	goleak.VerifyTestMain(m)
}

// recorder keeps every request the model received.
type recorder struct {
	llm.Provider
	mu   sync.Mutex
	reqs []llm.Request
}

func (r *recorder) Complete(ctx context.Context, req *llm.Request, on func(llm.Event)) (*llm.Response, error) {
	r.mu.Lock()
	r.reqs = append(r.reqs, *req)
	r.mu.Unlock()
	return r.Provider.Complete(ctx, req, on)
}

type rig struct {
	base, work string
	host       *extension.Host
	agent      *Agent
	sess       *session.Session
	model      *recorder
	events     []Event
}

// newRig builds an agent on a script and the plugins already written
// under base/plugins.
func newRig(t testing.TB, base, scriptText string, confirmer hook.Confirmer) *rig {
	t.Helper()
	work := t.TempDir()
	sp, err := script.Parse("test.jsonl", []byte(scriptText))
	if err != nil {
		t.Fatal(err)
	}
	reg := tool.NewRegistry()
	for _, bt := range builtin.All(builtin.Options{WorkDir: work}) {
		if _, err := reg.Add(bt); err != nil {
			t.Fatal(err)
		}
	}
	host := extension.NewHost(extension.Options{BaseDir: base, Registry: reg, Version: "test"})
	if err := host.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(host.Shutdown)
	sess, err := session.Create(base, "script:test.jsonl", work)
	if err != nil {
		t.Fatal(err)
	}
	r := &rig{base: base, work: work, host: host, sess: sess, model: &recorder{Provider: sp}}
	r.agent = New(Config{Provider: r.model, Model: "test", System: "system", Tools: reg, Hooks: host, Session: sess,
		Confirmer: confirmer, OnEvent: func(e Event) { r.events = append(r.events, e) }})
	t.Cleanup(func() { r.agent.End(context.Background()) })
	return r
}

// toolResults returns the tool results in the session, in order.
func (r *rig) toolResults() []llm.Block {
	var out []llm.Block
	for _, m := range r.sess.Messages() {
		for _, b := range m.Content {
			if b.Type == llm.BlockToolResult {
				out = append(out, b)
			}
		}
	}
	return out
}

func (r *rig) sessionFile(t testing.TB) string {
	b, err := os.ReadFile(r.sess.Path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func guardPlugin(t testing.TB, base, id string, perms []string, hooks []map[string]any, results map[string]string) {
	res := map[string]json.RawMessage{}
	for k, v := range results {
		res[k] = json.RawMessage(v)
	}
	exttest.Plugin(t, base, id, map[string]any{"permissions": perms, "hooks": hooks}, exttest.Spec{Results: res})
}

func TestScriptedModelCallsHelloExt(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 not installed")
	}
	base := t.TempDir()
	os.MkdirAll(filepath.Join(base, "plugins"), 0o755)
	if out, err := exec.Command("cp", "-r", "../../examples/extensions/hello-ext", filepath.Join(base, "plugins")).CombinedOutput(); err != nil {
		t.Fatal(err, string(out))
	}
	r := newRig(t, base, `{"text":"Let me greet Ada.","tool_calls":[{"name":"hello-ext_hello","input":{"name":"Ada"}}]}
{"text":"Done.","expect":{"last_tool_result_contains":"Hello, Ada!"}}
`, nil)
	if err := r.agent.Send(context.Background(), "greet Ada"); err != nil {
		t.Fatal(err)
	}
	got := r.toolResults()
	if len(got) != 1 || got[0].Content != "Hello, Ada!" || got[0].IsError {
		t.Fatalf("tool results = %+v", got)
	}
	// The model was offered the extension's tool under its model-facing name.
	var names []string
	for _, td := range r.model.reqs[0].Tools {
		names = append(names, td.Name)
	}
	if !strings.Contains(strings.Join(names, " "), "hello-ext_hello") {
		t.Errorf("tools offered: %v", names)
	}
}

func TestGuardBlocksDangerousBash(t *testing.T) {
	base := t.TempDir()
	guardPlugin(t, base, "guard", []string{"tools.intercept"},
		[]map[string]any{{"hook": "before_tool_call", "tool": "bash", "match": map[string]any{"input_contains": "rm -rf"}}},
		map[string]string{"hook:before_tool_call": `{"action":"block","reason":"rm -rf is not allowed"}`})
	r := newRig(t, base, `{"tool_calls":[{"name":"bash","input":{"command":"touch ran && rm -rf victim"}}]}
{"tool_calls":[{"name":"bash","input":{"command":"echo harmless"}}],"expect":{"last_tool_result_contains":"Tool call blocked by extension guard: rm -rf is not allowed"}}
{"text":"ok","expect":{"last_tool_result_contains":"harmless"}}
`, nil)
	os.MkdirAll(filepath.Join(r.work, "victim"), 0o755)
	if err := r.agent.Send(context.Background(), "clean up"); err != nil {
		t.Fatal(err)
	}
	res := r.toolResults()
	if len(res) != 2 || !res[0].IsError || res[1].IsError {
		t.Fatalf("results = %+v", res)
	}
	if _, err := os.Stat(filepath.Join(r.work, "ran")); err == nil {
		t.Error("the blocked command ran")
	}
	var blockedBy string
	for _, e := range r.events {
		if e.Type == EventToolEnd && e.Tool.BlockedBy != "" {
			blockedBy = e.Tool.BlockedBy
		}
	}
	if blockedBy != "guard" {
		t.Errorf("tool_end events do not name the guard: %q", blockedBy)
	}
}

func TestModifyRewritesTheCommandThatRuns(t *testing.T) {
	base := t.TempDir()
	guardPlugin(t, base, "rewriter", []string{"tools.intercept"},
		[]map[string]any{{"hook": "before_tool_call", "tool": "bash"}},
		map[string]string{"hook:before_tool_call": `{"action":"modify","input":{"command":"echo modified > out.txt"}}`})
	r := newRig(t, base, `{"tool_calls":[{"name":"bash","input":{"command":"echo original > out.txt"}}]}
{"text":"ok"}
`, nil)
	if err := r.agent.Send(context.Background(), "write"); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(r.work, "out.txt"))
	if err != nil || string(b) != "modified\n" {
		t.Fatalf("out.txt = %q, %v", b, err)
	}
}

func TestReplaceRedactsSecretFromSession(t *testing.T) {
	base := t.TempDir()
	guardPlugin(t, base, "redactor", []string{"tools.intercept", "tools.transform_output"},
		[]map[string]any{{"hook": "after_tool_call"}},
		map[string]string{"hook:after_tool_call": `{"action":"replace","output":"API_TOKEN=[REDACTED]"}`})
	r := newRig(t, base, `{"tool_calls":[{"name":"bash","input":{"command":"cat .env"}}]}
{"text":"ok","expect":{"last_tool_result_contains":"[REDACTED]"}}
`, nil)
	os.WriteFile(filepath.Join(r.work, ".env"), []byte("API_TOKEN=sk-live-4242\n"), 0o600)
	if err := r.agent.Send(context.Background(), "show env"); err != nil {
		t.Fatal(err)
	}
	r.agent.End(context.Background())
	if strings.Contains(r.sessionFile(t), "sk-live-4242") {
		t.Fatal("the secret reached the session file")
	}
	if !strings.Contains(r.sessionFile(t), "[REDACTED]") {
		t.Fatal("the replacement is not in the session file")
	}
}

// A before_message inject is saved with its message, marked, and re-sent
// unchanged by every later request (prompt caching needs the prefix to
// stay as it was); it is not the user's text.
func TestBeforeMessageInjectIsSavedWithItsMessage(t *testing.T) {
	base := t.TempDir()
	guardPlugin(t, base, "ctx", []string{"privacy.llm_content"},
		[]map[string]any{{"hook": "before_message"}},
		map[string]string{"hook:before_message": `{"action":"inject","content":"INJECTED-CONTEXT-7"}`})
	r := newRig(t, base, `{"text":"ok","expect":{"last_user_contains":"INJECTED-CONTEXT-7"}}
{"text":"ok again"}
`, nil)
	if err := r.agent.Send(context.Background(), "hello"); err != nil {
		t.Fatal(err)
	}
	last := r.model.reqs[0].Messages[len(r.model.reqs[0].Messages)-1]
	if len(last.Content) != 2 || !strings.Contains(last.Content[1].Text, "not instructions from the user") || !last.Content[1].Inject {
		t.Fatalf("request's user message = %+v", last)
	}
	if got := last.Text(); got != "hello" {
		t.Errorf("the message's text is %q; want the user's alone", got)
	}
	if !strings.Contains(r.sessionFile(t), `INJECTED-CONTEXT-7`) || !strings.Contains(r.sessionFile(t), `"inject":true`) {
		t.Fatalf("the inject was not saved, marked, with its message:\n%s", r.sessionFile(t))
	}
	if err := r.agent.Send(context.Background(), "again"); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(r.model.reqs[0].Messages[0], r.model.reqs[1].Messages[0]); d != "" {
		t.Errorf("the first message changed in the next turn's request (-turn 1 +turn 2):\n%s", d)
	}
}

func TestSessionStartInjectGoesToSystemPromptOnce(t *testing.T) {
	base := t.TempDir()
	guardPlugin(t, base, "boot", []string{"session.lifecycle"},
		[]map[string]any{{"hook": "on_session_start"}},
		map[string]string{"hook:on_session_start": `{"action":"inject","content":"PROJECT-FACTS"}`})
	r := newRig(t, base, `{"text":"one","expect":{"system_contains":"PROJECT-FACTS"}}
{"text":"two"}
`, nil)
	r.agent.Send(context.Background(), "a")
	r.agent.Send(context.Background(), "b")
	for i, req := range r.model.reqs {
		if strings.Count(req.System, "PROJECT-FACTS") != 1 {
			t.Errorf("request %d system prompt has the inject %d times", i, strings.Count(req.System, "PROJECT-FACTS"))
		}
	}
}

type approve bool

func (a approve) Confirm(context.Context, string, []hook.Confirm) bool { return bool(a) }

func TestConfirm(t *testing.T) {
	for _, tc := range []struct {
		name      string
		confirmer hook.Confirmer
		ran       bool
	}{
		{"headless blocks", nil, false},
		{"the user declines", approve(false), false},
		{"the user approves", approve(true), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			base := t.TempDir()
			guardPlugin(t, base, "asker", []string{"hooks.before_tool_call"},
				[]map[string]any{{"hook": "before_tool_call"}},
				map[string]string{"hook:before_tool_call": `{"action":"confirm","message":"touch a file?"}`})
			r := newRig(t, base, `{"tool_calls":[{"name":"bash","input":{"command":"touch ran"}}]}
{"text":"ok"}
`, tc.confirmer)
			if err := r.agent.Send(context.Background(), "go"); err != nil {
				t.Fatal(err)
			}
			_, err := os.Stat(filepath.Join(r.work, "ran"))
			if ran := err == nil; ran != tc.ran {
				t.Fatalf("ran = %v, want %v; results %+v", ran, tc.ran, r.toolResults())
			}
		})
	}
}

func TestCancelDuringToolLeavesSessionConsistent(t *testing.T) {
	base := t.TempDir()
	r := newRig(t, base, `{"tool_calls":[{"name":"bash","input":{"command":"sleep 30"}},{"name":"bash","input":{"command":"echo second"}}]}
{"text":"never"}
`, nil)
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		for {
			time.Sleep(20 * time.Millisecond)
			if strings.Contains(r.sessionFile(t), "tool_use") {
				time.Sleep(100 * time.Millisecond)
				cancel()
				return
			}
		}
	}()
	err := r.agent.Send(ctx, "wait")
	if err == nil {
		t.Fatal("cancelled Send returned nil")
	}
	d, err := session.Read(r.sess.Path)
	if err != nil {
		t.Fatal(err)
	}
	uses, results := map[string]bool{}, map[string]string{}
	for _, m := range d.Messages {
		for _, b := range m.Content {
			switch b.Type {
			case llm.BlockToolUse:
				uses[b.ID] = true
			case llm.BlockToolResult:
				results[b.ToolUseID] = b.Content
			}
		}
	}
	// Each call is answered, saying how the cancel met it (the running
	// one without Go's "context canceled").
	want := map[string]string{
		"toolu_script_1_1": "cancelled by the user while it ran; it may have taken effect in part",
		"toolu_script_1_2": "cancelled by the user before it ran",
	}
	if len(uses) != 2 || !cmp.Equal(uses, map[string]bool{"toolu_script_1_1": true, "toolu_script_1_2": true}) {
		t.Fatalf("tool uses %v", uses)
	}
	if diff := cmp.Diff(want, results); diff != "" {
		t.Errorf("tool results (-want +got):\n%s", diff)
	}
}

func TestUnknownToolAndInvalidInputGoBackToTheModel(t *testing.T) {
	base := t.TempDir()
	r := newRig(t, base, `{"tool_calls":[{"name":"nope","input":{}},{"name":"read","input":{"path":42}}]}
{"text":"ok"}
`, nil)
	if err := r.agent.Send(context.Background(), "x"); err != nil {
		t.Fatal(err)
	}
	res := r.toolResults()
	if len(res) != 2 || !res[0].IsError || !strings.Contains(res[0].Content, `unknown tool "nope"`) || !res[1].IsError || !strings.Contains(res[1].Content, "path") {
		t.Fatalf("results = %+v", res)
	}
}

// slowConfirmer approves after the fake clock moved an hour: the user
// took an hour to answer.
type slowConfirmer struct{ clock *time.Time }

func (c slowConfirmer) Confirm(context.Context, string, []hook.Confirm) bool {
	*c.clock = c.clock.Add(time.Hour)
	return true
}

func TestToolDurationExcludesConfirmWait(t *testing.T) {
	base := t.TempDir()
	guardPlugin(t, base, "asker", []string{"hooks.before_tool_call"},
		[]map[string]any{{"hook": "before_tool_call"}},
		map[string]string{"hook:before_tool_call": `{"action":"confirm","message":"echo?"}`})
	clock := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	r := newRig(t, base, `{"tool_calls":[{"name":"bash","input":{"command":"echo hi"}}]}
{"text":"ok"}
`, slowConfirmer{&clock})
	r.agent.now = func() time.Time { return clock } // moves only while the user answers
	if err := r.agent.Send(context.Background(), "go"); err != nil {
		t.Fatal(err)
	}
	var ends []*ToolCall
	for _, e := range r.events {
		if e.Type == EventToolEnd {
			ends = append(ends, e.Tool)
		}
	}
	if len(ends) != 1 || ends[0].Output != "hi\n" {
		t.Fatalf("tool ends %+v, want one echo hi", ends)
	}
	if d := ends[0].Duration; d != 0 {
		t.Errorf("duration %v includes the hour the user took to confirm; want 0 on a clock that moved only then", d)
	}
}

func TestCancelKeepsPartialAnswer(t *testing.T) {
	base := t.TempDir()
	r := newRig(t, base, `{"text":"The first words and then much more","delay_ms":3600000}
`, nil)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r.agent.cfg.OnEvent = func(e Event) {
		if e.Type == EventText {
			cancel() // the user interrupts while the script pauses after a word
		}
	}
	if err := r.agent.Send(ctx, "talk"); err == nil {
		t.Fatal("cancelled Send returned nil")
	}
	d, err := session.Read(r.sess.Path)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range d.Messages {
		got = append(got, string(m.Role)+": "+m.Text())
	}
	if diff := cmp.Diff([]string{"user: talk", "assistant: The"}, got); diff != "" {
		t.Errorf("session after the interrupt (-want +got):\n%s", diff)
	}
}
