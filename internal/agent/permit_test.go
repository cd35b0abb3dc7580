package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/synaps-cli/synaps/internal/extension/exttest"
	"github.com/synaps-cli/synaps/internal/hook"
	"github.com/synaps-cli/synaps/internal/permission"
)

// asker records every question and answers with answer.
type asker struct {
	mu     sync.Mutex
	answer Answer
	asked  []Question
}

func (a *asker) Confirm(ctx context.Context, tool string, msgs []hook.Confirm) bool {
	return a.Ask(ctx, Question{Tool: tool, Messages: msgs}) != AnswerNo
}

func (a *asker) Ask(_ context.Context, q Question) Answer {
	a.mu.Lock()
	defer a.mu.Unlock()
	q.Input = nil
	a.asked = append(a.asked, q)
	return a.answer
}

func withPolicy(t *testing.T, r *rig, mode permission.Mode, allow string) {
	t.Helper()
	rules, err := permission.ParseRules(allow)
	if err != nil {
		t.Fatal(err)
	}
	r.agent.cfg.Permissions = permission.New(permission.Config{Mode: mode, WorkDir: r.work, Rules: permission.Rules{Allow: rules}})
}

const touchScript = `{"tool_calls":[{"name":"bash","input":{"command":"touch ran"}}]}
{"text":"ok"}
`

func (r *rig) ran() bool {
	_, err := os.Stat(filepath.Join(r.work, "ran"))
	return err == nil
}

// A guard's block wins over every allow rule and over bypassPermissions.
func TestPermitGuardBlockBeatsAllow(t *testing.T) {
	for _, mode := range []permission.Mode{permission.Default, permission.Bypass} {
		t.Run(string(mode), func(t *testing.T) {
			base := t.TempDir()
			guardPlugin(t, base, "guard", []string{"hooks.before_tool_call"}, []map[string]any{{"hook": "before_tool_call"}},
				map[string]string{"hook:before_tool_call": `{"action":"block","reason":"no touching"}`})
			r := newRig(t, base, touchScript, &asker{answer: AnswerYes})
			withPolicy(t, r, mode, "Bash")
			if err := r.agent.Send(context.Background(), "go"); err != nil {
				t.Fatal(err)
			}
			res := r.toolResults()
			if r.ran() || len(res) != 1 || !strings.Contains(res[0].Content, "blocked by extension guard: no touching") {
				t.Fatalf("ran = %v, results %+v", r.ran(), res)
			}
		})
	}
}

// An extension's confirm and the mode's question are one question.
func TestPermitAsksOnceWithEveryMessage(t *testing.T) {
	base := t.TempDir()
	guardPlugin(t, base, "asker", []string{"hooks.before_tool_call"}, []map[string]any{{"hook": "before_tool_call"}},
		map[string]string{"hook:before_tool_call": `{"action":"confirm","message":"touch a file?"}`})
	a := &asker{answer: AnswerYes}
	r := newRig(t, base, touchScript, a)
	withPolicy(t, r, permission.Default, "")
	if err := r.agent.Send(context.Background(), "go"); err != nil {
		t.Fatal(err)
	}
	want := []Question{{Tool: "bash", Messages: []hook.Confirm{{Extension: "asker", Message: "touch a file?"}, {Extension: PermissionsSource, Message: "default mode asks before bash"}}}}
	if d := cmp.Diff(want, a.asked); d != "" {
		t.Errorf("questions (-want +got):\n%s", d)
	}
	if !r.ran() {
		t.Error("approved call did not run")
	}
}

// A confirm the user declines is in the intercept log, as when the host
// asked itself (metadata only).
func TestPermitDeclinedConfirmIsRecorded(t *testing.T) {
	base := t.TempDir()
	guardPlugin(t, base, "asker", []string{"hooks.before_tool_call"}, []map[string]any{{"hook": "before_tool_call"}},
		map[string]string{"hook:before_tool_call": `{"action":"confirm","message":"touch a file?"}`})
	r := newRig(t, base, touchScript, &asker{answer: AnswerNo})
	withPolicy(t, r, permission.Default, "")
	if err := r.agent.Send(context.Background(), "go"); err != nil {
		t.Fatal(err)
	}
	log, _ := os.ReadFile(filepath.Join(base, "extensions", "intercept.jsonl"))
	if !strings.Contains(string(log), `"action":"confirm"`) || !strings.Contains(string(log), `"extension":"asker"`) || r.ran() {
		t.Errorf("ran %v; intercept.jsonl = %s", r.ran(), log)
	}
}

// The rules judge the input that will run: a rewriter's modify cannot
// slip a command past an allow rule written for the original.
func TestPermitJudgesModifiedInput(t *testing.T) {
	base := t.TempDir()
	guardPlugin(t, base, "rewriter", []string{"tools.intercept"}, []map[string]any{{"hook": "before_tool_call"}},
		map[string]string{"hook:before_tool_call": `{"action":"modify","input":{"command":"touch ran"}}`})
	r := newRig(t, base, `{"tool_calls":[{"name":"bash","input":{"command":"git status"}}]}
{"text":"ok"}
`, nil)
	withPolicy(t, r, permission.Default, "Bash(git status:*)")
	if err := r.agent.Send(context.Background(), "go"); err != nil {
		t.Fatal(err)
	}
	res := r.toolResults()
	if r.ran() || len(res) != 1 || !strings.Contains(res[0].Content, "bash was not run: it needs permission (default mode asks before bash)") {
		t.Fatalf("ran = %v, results %+v", r.ran(), res)
	}
	if !strings.Contains(res[0].Content, "--allowedTools 'Bash(touch:*)'") {
		t.Errorf("the refusal does not name the rule that allows it: %s", res[0].Content)
	}
}

// "always" saves the suggested rule, and the next such call is not asked.
func TestPermitAlwaysSavesRule(t *testing.T) {
	a := &asker{answer: AnswerAlways}
	r := newRig(t, t.TempDir(), `{"tool_calls":[{"name":"bash","input":{"command":"touch ran"}}]}
{"tool_calls":[{"name":"bash","input":{"command":"touch again"}}]}
{"text":"ok"}
`, a)
	withPolicy(t, r, permission.Default, "")
	var saved []string
	r.agent.cfg.SaveRule = func(rule string) (string, error) { saved = append(saved, rule); return "the test", nil }
	if err := r.agent.Send(context.Background(), "go"); err != nil {
		t.Fatal(err)
	}
	if len(a.asked) != 1 || a.asked[0].Always != "Bash(touch:*)" {
		t.Errorf("asked %+v, want one question offering Bash(touch:*)", a.asked)
	}
	if !cmp.Equal(saved, []string{"Bash(touch:*)"}) {
		t.Errorf("saved %v", saved)
	}
	if _, err := os.Stat(filepath.Join(r.work, "again")); err != nil {
		t.Errorf("the second call did not run: %v", r.toolResults())
	}
}

func TestPermitModes(t *testing.T) {
	for _, tc := range []struct {
		mode    permission.Mode
		answer  Answer
		ran     bool
		asked   int
		content string
	}{
		{mode: permission.Default, answer: AnswerNo, ran: false, asked: 1, content: "The user declined to run bash (default mode asks before bash)."},
		{mode: permission.Default, answer: AnswerYes, ran: true, asked: 1},
		{mode: permission.AcceptEdits, answer: AnswerNo, ran: false, asked: 1},
		{mode: permission.Plan, answer: AnswerYes, ran: false, asked: 0, content: "bash was not run: synaps is in plan mode"},
		{mode: permission.Bypass, answer: AnswerNo, ran: true, asked: 0},
	} {
		t.Run(string(tc.mode), func(t *testing.T) {
			a := &asker{answer: tc.answer}
			r := newRig(t, t.TempDir(), touchScript, a)
			withPolicy(t, r, tc.mode, "")
			if err := r.agent.Send(context.Background(), "go"); err != nil {
				t.Fatal(err)
			}
			if r.ran() != tc.ran || len(a.asked) != tc.asked {
				t.Errorf("ran = %v, asked %d times; want %v, %d", r.ran(), len(a.asked), tc.ran, tc.asked)
			}
			if res := r.toolResults(); tc.content != "" && !strings.Contains(res[0].Content, tc.content) {
				t.Errorf("result %q, want it to contain %q", res[0].Content, tc.content)
			}
		})
	}
}

// Plan mode's refusal says how to leave plan mode where the user is: the
// front-end's words (LeavePlan), or the flag of a headless run.
func TestPlanRefusalNamesHowToLeave(t *testing.T) {
	for _, tc := range []struct{ leave, want string }{
		{"", "the user leaves plan mode (run again with --permission-mode default (or acceptEdits), or change permission_mode in the config) to have it done"},
		{"Shift+Tab, or /mode default", "the user leaves plan mode (Shift+Tab, or /mode default) to have it done"},
	} {
		r := newRig(t, t.TempDir(), touchScript, &asker{answer: AnswerYes})
		withPolicy(t, r, permission.Plan, "")
		r.agent.cfg.LeavePlan = tc.leave
		if err := r.agent.Send(context.Background(), "go"); err != nil {
			t.Fatal(err)
		}
		if res := r.toolResults(); len(res) != 1 || !strings.Contains(res[0].Content, tc.want) {
			t.Errorf("LeavePlan %q: results %+v, want one containing %q", tc.leave, res, tc.want)
		}
	}
}

// Before a question, on_notification tells a notifier that synaps waits
// for the user (Claude Code's Notification, permission_prompt); no
// question, no notification.
func TestPermitNotifiesBeforeAsking(t *testing.T) {
	base := t.TempDir()
	dir := exttest.Plugin(t, base, "notifier", map[string]any{"permissions": []string{"hooks.on_notification"}, "hooks": []map[string]any{{"hook": "on_notification"}}},
		exttest.Spec{Record: true})
	r := newRig(t, base, touchScript+touchScript, &asker{answer: AnswerYes})
	withPolicy(t, r, permission.Default, "")
	if err := r.agent.Send(context.Background(), "go"); err != nil {
		t.Fatal(err)
	}
	var ev struct {
		Kind    string `json:"kind"`
		Message string `json:"message"`
		Data    struct {
			Type  string `json:"notification_type"`
			Title string `json:"title"`
		} `json:"data"`
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		b, err := os.ReadFile(filepath.Join(dir, "record.jsonl"))
		if err == nil && json.Unmarshal(bytes.SplitN(b, []byte("\n"), 2)[0], &ev) == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no on_notification reached the notifier")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if ev.Kind != "on_notification" || ev.Message != "synaps needs your permission to use bash" || ev.Data.Type != "permission_prompt" || ev.Data.Title != "synaps" {
		t.Errorf("event = %+v", ev)
	}
	// Allowed by a rule: nothing is asked, nobody is notified.
	os.Remove(filepath.Join(dir, "record.jsonl"))
	withPolicy(t, r, permission.Default, "Bash(touch:*)")
	if err := r.agent.Send(context.Background(), "again"); err != nil {
		t.Fatal(err)
	}
	time.Sleep(100 * time.Millisecond)
	if _, err := os.Stat(filepath.Join(dir, "record.jsonl")); err == nil {
		t.Error("notified although nothing was asked")
	}
}
