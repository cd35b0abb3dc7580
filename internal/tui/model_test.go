package tui

import (
	"context"
	"encoding/base64"
	"errors"
	"image/color"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"github.com/google/go-cmp/cmp"

	"github.com/synaps-cli/synaps/internal/agent"
	"github.com/synaps-cli/synaps/internal/app"
	"github.com/synaps-cli/synaps/internal/hook"
	"github.com/synaps-cli/synaps/internal/host"
	"github.com/synaps-cli/synaps/internal/llm"
	"github.com/synaps-cli/synaps/internal/permission"
)

// harness is a model on a real app (scripted model, no extensions) with
// no terminal: the test types keys into update and carries what the
// worker sends back.
type harness struct {
	t    *testing.T
	m    *model
	msgs chan tea.Msg
}

func newHarness(t *testing.T, script string) *harness {
	t.Helper()
	dir := t.TempDir()
	return openHarness(t, dir, filepath.Join(dir, "base"), script, false, 100)
}

// openHarness runs the model on an app in dir with base as its base
// directory, the scripted model script, a width-column screen and, with
// extensions, the plugins under base (PATH is passed for them).
func openHarness(t *testing.T, dir, base, script string, extensions bool, width int) *harness {
	t.Helper()
	file := filepath.Join(dir, "script.jsonl")
	if err := os.WriteFile(file, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	br := newBridge()
	msgs := make(chan tea.Msg, 1000)
	br.attach(func(msg tea.Msg) { msgs <- msg })
	ctx := context.Background()
	hs, err := host.New().Open(ctx, app.Options{
		Getenv: func(k string) string {
			if extensions && k == "PATH" {
				return os.Getenv(k)
			}
			return ""
		},
		BaseDir: base, WorkDir: dir, Model: "script:" + file, NoExtensions: !extensions,
		OnEvent: br.event, Confirmer: br, Version: "test",
		// Bash and file edits run without asking: these tests are about
		// the screen, not permissions (an extension's confirm still asks).
		Allowed: allowEdits(t),
	})
	if err != nil {
		t.Fatal(err)
	}
	m := newModel(ctx, hs, br, colorprofile.ASCII, []string{"NO_COLOR=1"})
	t.Cleanup(func() {
		br.stop()
		m.stopWork()
		hs.Close(context.Background())
	})
	m.Init()
	m.update(tea.WindowSizeMsg{Width: width, Height: 30})
	return &harness{t: t, m: m, msgs: msgs}
}

func (h *harness) typeText(s string) {
	for _, r := range s {
		h.m.update(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
}

func (h *harness) press(code rune, mod tea.KeyMod) tea.Cmd {
	return h.m.update(tea.KeyPressMsg{Code: code, Mod: mod})
}

// until feeds the worker's messages to the model until done says so.
func (h *harness) until(what string, done func(tea.Msg) bool) {
	h.t.Helper()
	timeout := time.After(20 * time.Second)
	for {
		select {
		case msg := <-h.msgs:
			h.m.update(msg)
			if done(msg) {
				return
			}
		case <-timeout:
			h.t.Fatalf("waiting for %s; transcript:\n%s", what, h.transcript())
		}
	}
}

func isWorkDone(msg tea.Msg) bool { _, ok := msg.(workDoneMsg); return ok }

func (h *harness) transcript() string {
	return ansi.Strip(strings.Join(h.m.transcriptText(0, h.m.width), "\n"))
}

func (h *harness) view() string { return ansi.Strip(h.m.View().Content) }

func TestModelTurn(t *testing.T) {
	h := newHarness(t, `{"text":"Some **strong** words.","tool_calls":[{"name":"bash","input":{"command":"printf 'a\\nb\\nc\\nd\\n'"}}]}
{"text":"bye now"}
`)
	h.typeText("hello")
	h.press(tea.KeyEnter, 0)
	if h.m.busy == "" {
		t.Fatal("not busy after enter")
	}
	if v := h.m.input.Value(); v != "" {
		t.Errorf("input not cleared: %q", v)
	}
	h.until("the turn to end", isWorkDone)
	got := h.transcript()
	for _, want := range []string{"› hello", "Some strong words.", "✓ bash printf", "  │ a", "  │ … 1 more line", "bye now"} {
		if !strings.Contains(got, want) {
			t.Errorf("transcript lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "**strong**") {
		t.Errorf("markdown not rendered:\n%s", got)
	}
	if h.m.busy != "" || h.m.stream.Len() != 0 || len(h.m.tools) != 0 {
		t.Errorf("turn state left: busy %q, stream %q, tools %d", h.m.busy, h.m.stream.String(), len(h.m.tools))
	}
	if u := h.m.state.usage; u.InputTokens == 0 || u.OutputTokens == 0 {
		t.Errorf("usage not shown: %+v", u)
	}
	if v := h.view(); !strings.Contains(v, "tokens ") || !strings.Contains(v, "script:") {
		t.Errorf("status line missing from view:\n%s", v)
	}

	// Up brings the message back.
	h.press(tea.KeyUp, 0)
	if v := h.m.input.Value(); v != "hello" {
		t.Errorf("history: input = %q, want hello", v)
	}
}

func TestModelConfirm(t *testing.T) {
	h := newHarness(t, `{"text":"x"}`)
	h.m.busy = "thinking" // as if a turn ran
	h.typeText("half-typed")
	for _, tc := range []struct {
		answer string
		want   bool
	}{{"y", true}, {"yes", true}, {"n", false}, {"", false}, {"sure", false}, {"a", false}} {
		reply := make(chan agent.Answer, 1)
		h.m.update(confirmMsg{tool: "bash", messages: []hook.Confirm{{Extension: "guard", Message: "run it?"}}, reply: reply})
		v := h.view()
		if !strings.Contains(v, "? guard: run it?") || !strings.Contains(v, "Run bash? [y/N]") {
			t.Fatalf("confirm prompt not shown:\n%s", v)
		}
		h.typeText(tc.answer)
		h.press(tea.KeyEnter, 0)
		select {
		case ans := <-reply:
			if got := ans != agent.AnswerNo; got != tc.want {
				t.Errorf("answer %q: confirm = %v, want %v", tc.answer, got, tc.want)
			}
		default:
			t.Fatalf("answer %q: no reply", tc.answer)
		}
		if h.m.asking != promptNone {
			t.Errorf("answer %q: still asking", tc.answer)
		}
		if v := h.m.input.Value(); v != "half-typed" {
			t.Errorf("answer %q: draft not restored: %q", tc.answer, v)
		}
	}
	if got := h.transcript(); !strings.Contains(got, "bash allowed") || !strings.Contains(got, "bash denied") {
		t.Errorf("answers not in the transcript:\n%s", got)
	}

	// ctrl+c at the prompt denies and cancels.
	cancelled := false
	h.m.cancel = func() { cancelled = true }
	reply := make(chan agent.Answer, 1)
	h.m.update(confirmMsg{tool: "bash", reply: reply})
	h.press('c', tea.ModCtrl)
	if got := <-reply != agent.AnswerNo; got || !cancelled {
		t.Errorf("ctrl+c at the prompt: confirm = %v, cancelled = %v; want false, true", got, cancelled)
	}
	if h.m.quitting || h.m.input.Value() != "half-typed" {
		t.Errorf("one ctrl+c while busy: quitting %v, input %q; want the draft back", h.m.quitting, h.m.input.Value())
	}
	h.press('c', tea.ModCtrl) // clears the draft
	if h.m.quitting || h.m.input.Value() != "" {
		t.Errorf("second ctrl+c: quitting %v, input %q; want the input cleared", h.m.quitting, h.m.input.Value())
	}
	h.press('c', tea.ModCtrl)
	if !h.m.quitting {
		t.Error("ctrl+c while an interrupted turn winds down did not quit")
	}
	h.m.busy, h.m.cancel = "", nil
}

// The input's placeholder at a permission question names every answer
// the question offers: "a" only when it offers always.
func TestModelConfirmPlaceholder(t *testing.T) {
	for _, tc := range []struct{ always, want string }{
		{"Bash(ls:*)", "y, n or a (always), then enter"},
		{"", "y or n, then enter"},
	} {
		h := newHarness(t, `{"text":"x"}`)
		h.m.busy = "thinking"
		reply := make(chan agent.Answer, 1)
		h.m.update(confirmMsg{tool: "bash", always: tc.always, reply: reply})
		if v := h.view(); !strings.Contains(v, tc.want) {
			t.Errorf("always %q: the placeholder is not %q:\n%s", tc.always, tc.want, v)
		}
		h.typeText("n")
		h.press(tea.KeyEnter, 0)
		<-reply
		h.m.busy = ""
	}
}

// A permission question offers "always" with the rule it saves; "a"
// answers it.
func TestModelConfirmAlways(t *testing.T) {
	h := newHarness(t, `{"text":"x"}`)
	h.m.busy = "thinking"
	reply := make(chan agent.Answer, 1)
	h.m.update(confirmMsg{tool: "bash", messages: []hook.Confirm{{Extension: agent.PermissionsSource, Message: "default mode asks before bash"}}, always: "Bash(ls:*)", reply: reply})
	if v := h.view(); !strings.Contains(v, "? permissions: default mode asks before bash") || !strings.Contains(v, "Run bash? [y/N/a = always allow Bash(ls:*)]") {
		t.Fatalf("question not shown:\n%s", v)
	}
	h.typeText("a")
	h.press(tea.KeyEnter, 0)
	if got := <-reply; got != agent.AnswerAlways {
		t.Errorf("answer a: %v, want always", got)
	}
	if got := h.transcript(); !strings.Contains(got, "bash allowed, always: Bash(ls:*)") {
		t.Errorf("answer not in the transcript:\n%s", got)
	}
	h.m.busy = ""
}

// Shift+Tab cycles the permission mode, and the status line shows it.
func TestModelShiftTabCyclesMode(t *testing.T) {
	h := newHarness(t, `{"text":"x"}`)
	if got := h.m.modeText(permission.Default); !strings.Contains(got, "⏵ default mode") {
		t.Errorf("default mode shows as %q", got)
	}
	var seen []string
	for range 3 {
		h.press(tea.KeyTab, tea.ModShift)
		seen = append(seen, string(h.m.app.Permissions.Mode()))
	}
	if d := cmp.Diff([]string{"acceptEdits", "plan", "default"}, seen); d != "" {
		t.Errorf("modes (-want +got):\n%s", d)
	}
	h.press(tea.KeyTab, tea.ModShift)
	if v := h.view(); !strings.Contains(v, "⏵⏵ acceptEdits: edits run without asking · script:") {
		t.Errorf("status line after shift+tab does not lead with the mode:\n%s", v)
	}
}

func TestModelCtrlCIdleQuits(t *testing.T) {
	h := newHarness(t, `{"text":"x"}`)
	h.press('c', tea.ModCtrl)
	if h.m.quitting {
		t.Fatal("one ctrl+c on an empty idle prompt quit")
	}
	if v := h.view(); !strings.Contains(v, "press ctrl+c again to quit") {
		t.Errorf("no hint after the first ctrl+c:\n%s", v)
	}
	h.press('c', tea.ModCtrl)
	if !h.m.quitting {
		t.Fatal("a second ctrl+c on an empty idle prompt did not quit")
	}
	if v := h.m.View().Content; v != "" {
		t.Errorf("view after quit = %q, want empty", v)
	}
}

// Ctrl-D on an empty prompt asks for a second press, as Ctrl-C does (a
// stray end-of-file must not end the session); with text typed it does
// not quit at all.
func TestModelCtrlDTwiceQuits(t *testing.T) {
	h := newHarness(t, `{"text":"x"}`)
	h.typeText("draft")
	h.press('d', tea.ModCtrl)
	if h.m.quitting || !h.m.quitArmed.IsZero() {
		t.Fatal("ctrl+d with text typed quit or armed quitting")
	}
	h.m.input.Reset()
	h.press('d', tea.ModCtrl)
	if h.m.quitting {
		t.Fatal("one ctrl+d on an empty idle prompt quit")
	}
	if v := h.view(); !strings.Contains(v, "press ctrl+d again to quit") {
		t.Errorf("no hint after the first ctrl+d:\n%s", v)
	}
	h.press('d', tea.ModCtrl)
	if !h.m.quitting {
		t.Fatal("a second ctrl+d on an empty idle prompt did not quit")
	}
}

// Only the same key twice quits: the hint names the key pressed, and the
// other key re-arms quitting for itself (as in Claude Code), so the hint
// is always the key that quits.
func TestModelQuitNeedsTheSameKeyTwice(t *testing.T) {
	for _, tc := range []struct{ first, second rune }{{'c', 'd'}, {'d', 'c'}} {
		first, second := "ctrl+"+string(tc.first), "ctrl+"+string(tc.second)
		t.Run(first+" then "+second, func(t *testing.T) {
			h := newHarness(t, `{"text":"x"}`)
			h.press(tc.first, tea.ModCtrl)
			h.press(tc.second, tea.ModCtrl)
			if h.m.quitting {
				t.Fatalf("%s then %s quit, but the hint said to press %s again", first, second, first)
			}
			if v := h.view(); !strings.Contains(v, "press "+second+" again to quit") {
				t.Errorf("no hint naming %s after it:\n%s", second, v)
			}
			h.press(tc.second, tea.ModCtrl)
			if !h.m.quitting {
				t.Fatalf("%s pressed twice did not quit", second)
			}
		})
	}
}

func TestModelCancelTurn(t *testing.T) {
	h := newHarness(t, `{"text":"napping","tool_calls":[{"name":"bash","input":{"command":"sleep 30"}}]}`)
	h.typeText("sleep")
	h.press(tea.KeyEnter, 0)
	h.until("the tool to start", func(msg tea.Msg) bool {
		em, ok := msg.(eventMsg)
		return ok && em.ev.Tool != nil && em.ev.Type == "tool_start"
	})
	if v := h.view(); !strings.Contains(v, "bash sleep 30") {
		t.Errorf("running tool not in the view:\n%s", v)
	}
	h.press('c', tea.ModCtrl)
	h.until("the cancelled turn to end", isWorkDone)
	if h.m.quitting {
		t.Error("one ctrl+c quit")
	}
	got := h.transcript()
	for _, want := range []string{"✗ bash sleep 30", "cancelled"} {
		if !strings.Contains(got, want) {
			t.Errorf("transcript lacks %q:\n%s", want, got)
		}
	}
}

// An interrupted answer shows as a finished one does (indented, as
// Markdown), and before the "· cancelled" that ends it, for Esc and
// Ctrl+C alike.
func TestModelInterruptedAnswerComesFirst(t *testing.T) {
	for _, key := range []struct {
		name string
		code rune
		mod  tea.KeyMod
	}{{"esc", tea.KeyEscape, 0}, {"ctrl+c", 'c', tea.ModCtrl}} {
		t.Run(key.name, func(t *testing.T) {
			h := newHarness(t, `{"text":"partial words of an answer that is never finished","delay_ms":1000}`)
			h.typeText("tell me")
			h.press(tea.KeyEnter, 0)
			h.until("the answer to start", func(msg tea.Msg) bool {
				em, ok := msg.(eventMsg)
				return ok && em.ev.Type == agent.EventText
			})
			h.press(key.code, key.mod)
			h.until("the cancelled turn to end", isWorkDone)
			lines := strings.Split(h.transcript(), "\n")
			at := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, "› tell me") })
			if at < 0 || at+2 >= len(lines) {
				t.Fatalf("no prompt and two lines after it:\n%s", strings.Join(lines, "\n"))
			}
			if got := lines[at+1]; !strings.HasPrefix(got, "  partial") {
				t.Errorf("the line after the prompt is %q, want the partial answer, indented", got)
			}
			if got := lines[at+2]; got != "· cancelled" {
				t.Errorf("the line after the partial answer is %q, want \"· cancelled\"", got)
			}
		})
	}
}

func TestModelSlash(t *testing.T) {
	h := newHarness(t, `{"text":"x"}`)
	h.typeText("/mo")
	if v := h.view(); !strings.Contains(v, "/model [NAME]") {
		t.Errorf("completion not listed:\n%s", v)
	}
	h.press(tea.KeyTab, 0)
	if v := h.m.input.Value(); v != "/mode" {
		t.Fatalf("tab made %q, want %q (/mode and /model share it)", v, "/mode")
	}
	h.typeText("l")
	h.press(tea.KeyTab, 0)
	if v := h.m.input.Value(); v != "/model " {
		t.Fatalf("tab made %q, want %q", v, "/model ")
	}
	h.press(tea.KeyEnter, 0)
	h.until("/model", isWorkDone)
	if v := h.view(); !strings.Contains(v, "› * script:") {
		t.Errorf("/model's picker missing:\n%s", v)
	}
	h.press(tea.KeyEscape, 0)
	if v := h.view(); strings.Contains(v, "* script:") {
		t.Errorf("esc left /model's picker open:\n%s", v)
	}

	h.typeText("/help")
	h.press(tea.KeyEnter, 0)
	h.until("/help", isWorkDone)
	if got := h.transcript(); !strings.Contains(got, "/extensions reload") || !strings.Contains(got, "alt+enter ctrl+j") {
		t.Errorf("/help output missing:\n%s", got)
	}

	h.typeText("/bogus")
	h.press(tea.KeyEnter, 0)
	h.until("/bogus", isWorkDone)
	if got := h.transcript(); !strings.Contains(got, "error: unknown command /bogus") {
		t.Errorf("error missing:\n%s", got)
	}

	h.typeText("/quit")
	h.press(tea.KeyEnter, 0)
	h.until("/quit", isWorkDone)
	if !h.m.quitting {
		t.Error("/quit did not quit")
	}
}

func TestModelMultiline(t *testing.T) {
	h := newHarness(t, `{"text":"x"}`)
	h.typeText("one")
	h.press('j', tea.ModCtrl)
	h.typeText("two")
	h.press(tea.KeyEnter, tea.ModAlt)
	h.typeText("three\\")
	h.press(tea.KeyEnter, 0)
	if h.m.busy != "" {
		t.Fatal("\\ then enter sent the input")
	}
	h.typeText("four")
	if v := h.m.input.Value(); v != "one\ntwo\nthree\nfour" {
		t.Fatalf("input = %q", v)
	}
	// Up inside the text moves the cursor, not through history.
	h.m.hist.add("old")
	h.press(tea.KeyUp, 0)
	if v := h.m.input.Value(); v != "one\ntwo\nthree\nfour" {
		t.Errorf("up on line 4 changed the input to %q", v)
	}
}

func TestModelShowsInjectedContext(t *testing.T) {
	h := newHarness(t, `{"text":"x"}`+"\n")
	h.m.event(agent.Event{Type: agent.EventInject, Text: "notes, rules", Where: "user"})
	h.m.event(agent.Event{Type: agent.EventInject, Text: "boot", Where: "system"})
	got := h.transcript()
	for _, want := range []string{"context added to your message by notes, rules", "context added to the system prompt by boot"} {
		if !strings.Contains(got, want) {
			t.Errorf("transcript lacks %q:\n%s", want, got)
		}
	}
}

// TestModelCtrlC: ctrl+c takes back one thing at a time — the typed
// text, then the running work, then (twice) the session.
func TestModelCtrlC(t *testing.T) {
	for _, tc := range []struct {
		name          string
		busy, typed   bool
		wantInput     string
		wantCancel    bool
		wantArmed     bool
		wantStillBusy bool
	}{
		{name: "text while a turn runs: cleared, the turn goes on", busy: true, typed: true, wantStillBusy: true},
		{name: "empty while a turn runs: interrupted", busy: true, wantCancel: true, wantStillBusy: true},
		{name: "text when idle: cleared, not armed", typed: true},
		{name: "empty when idle: armed to quit", wantArmed: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, `{"text":"x"}`)
			cancelled := false
			if tc.busy {
				h.m.busy, h.m.cancel = "thinking", func() { cancelled = true }
			}
			if tc.typed {
				h.typeText("half a thought")
			}
			h.press('c', tea.ModCtrl)
			if got := h.m.input.Value(); got != tc.wantInput {
				t.Errorf("input = %q, want %q", got, tc.wantInput)
			}
			if cancelled != tc.wantCancel {
				t.Errorf("cancelled = %v, want %v", cancelled, tc.wantCancel)
			}
			if armed := !h.m.quitArmed.IsZero(); armed != tc.wantArmed {
				t.Errorf("armed to quit = %v, want %v", armed, tc.wantArmed)
			}
			if busy := h.m.busy != ""; busy != tc.wantStillBusy {
				t.Errorf("busy = %v, want %v", busy, tc.wantStillBusy)
			}
			if h.m.quitting {
				t.Error("quit on one ctrl+c")
			}
			h.m.busy, h.m.cancel = "", nil
		})
	}
}

func TestModelEscInterrupts(t *testing.T) {
	h := newHarness(t, `{"text":"x"}`)
	h.typeText("draft")
	h.press(tea.KeyEscape, 0)
	if h.m.input.Value() != "draft" || h.m.quitting {
		t.Fatalf("esc when idle changed something: input %q, quitting %v", h.m.input.Value(), h.m.quitting)
	}
	cancelled := false
	h.m.busy, h.m.cancel = "thinking", func() { cancelled = true }
	h.press(tea.KeyEscape, 0)
	if !cancelled {
		t.Error("esc during a turn did not interrupt it")
	}
	if h.m.input.Value() != "draft" {
		t.Errorf("esc lost the typed input: %q", h.m.input.Value())
	}
	h.m.busy, h.m.cancel = "", nil
}

// TestModelQueuesInputWhileBusy: what is sent during a turn waits its
// turn, is shown as queued, and runs when the turn ends; an interrupt
// gives it back to the input instead.
func TestModelQueuesInputWhileBusy(t *testing.T) {
	h := newHarness(t, `{"text":"first answer","delay_ms":3600000}
{"text":"second answer"}
`)
	h.typeText("one")
	h.press(tea.KeyEnter, 0)
	h.until("the answer to start", func(msg tea.Msg) bool {
		em, ok := msg.(eventMsg)
		return ok && em.ev.Type == agent.EventText
	})
	h.typeText("two")
	h.press(tea.KeyEnter, 0)
	if v := h.view(); !strings.Contains(v, "queued › two") {
		t.Errorf("queued input not shown:\n%s", v)
	}
	if h.m.input.Value() != "" {
		t.Errorf("input after queueing = %q", h.m.input.Value())
	}
	h.typeText("three")
	h.press(tea.KeyEnter, 0)
	h.press(tea.KeyEscape, 0)
	if got, want := h.m.input.Value(), "two\nthree"; got != want {
		t.Errorf("after the interrupt the input is %q, want the queue back: %q", got, want)
	}
	h.until("the interrupted turn to end", isWorkDone)
	if h.m.busy != "" {
		t.Fatalf("busy %q after an interrupt with the queue given back", h.m.busy)
	}

	// Queued while busy, it runs after.
	h.m.input.Reset()
	h.typeText("next")
	h.press(tea.KeyEnter, 0)
	h.typeText("/model")
	h.press(tea.KeyEnter, 0)
	h.until("the turn to end", isWorkDone)
	h.until("the queued /model to end", isWorkDone)
	got := h.transcript()
	if i, j := strings.Index(got, "second answer"), strings.Index(got, "model: script:"); i < 0 || j < i {
		t.Errorf("queued /model did not run after the turn:\n%s", got)
	}
}

// TestModelOpensWhileTyping: before the session is open the status line
// names the extensions starting; what is sent is queued and runs once
// it is open.
func TestModelOpensWhileTyping(t *testing.T) {
	h := newHarness(t, `{"text":"answered after the start"}`)
	hs := h.m.hs
	m := newModel(context.Background(), nil, h.m.br, colorprofile.ASCII, []string{"NO_COLOR=1"})
	m.Init()
	m.update(tea.WindowSizeMsg{Width: 100, Height: 30})
	h.m = m
	m.update(progressMsg{starting: []string{"guard", "notes"}})
	if v := h.view(); !strings.Contains(v, "starting extensions: guard, notes") {
		t.Errorf("starting extensions not named:\n%s", v)
	}
	h.typeText("early words")
	h.press(tea.KeyEnter, 0)
	if v := h.view(); !strings.Contains(v, "queued › early words") {
		t.Errorf("input typed during start not queued:\n%s", v)
	}
	m.update(openedMsg{hs: hs})
	h.until("the queued message to run", isWorkDone)
	if got := h.transcript(); !strings.Contains(got, "› early words") || !strings.Contains(got, "answered after the start") {
		t.Errorf("queued message did not run:\n%s", got)
	}
}

func TestModelWithoutModel(t *testing.T) {
	dir := t.TempDir()
	br := newBridge()
	msgs := make(chan tea.Msg, 100)
	br.attach(func(msg tea.Msg) { msgs <- msg })
	hs, err := host.New().Open(context.Background(), app.Options{Getenv: func(string) string { return "" }, BaseDir: filepath.Join(dir, "base"),
		WorkDir: dir, NoExtensions: true, NoModelOK: true, OnEvent: br.event, Confirmer: br})
	if err != nil {
		t.Fatal(err)
	}
	m := newModel(context.Background(), hs, br, colorprofile.ASCII, nil)
	h := &harness{t: t, m: m, msgs: msgs}
	t.Cleanup(func() { br.stop(); m.stopWork(); hs.Close(context.Background()) })
	m.Init()
	if got := h.transcript(); !strings.Contains(got, "no model configured") || !strings.Contains(got, "/model NAME") {
		t.Errorf("no word on configuring a model:\n%s", got)
	}
	h.typeText("hello?")
	h.press(tea.KeyEnter, 0)
	if m.busy != "" {
		t.Fatal("a message without a model started a turn")
	}
	if got := h.transcript(); !strings.Contains(got, "error: no model configured") {
		t.Errorf("the message without a model was not answered with how to configure one:\n%s", got)
	}
	h.typeText("/help")
	h.press(tea.KeyEnter, 0)
	h.until("/help", isWorkDone)
	if got := h.transcript(); !strings.Contains(got, "/extensions reload") {
		t.Errorf("/help did not work without a model:\n%s", got)
	}
}

func TestModelResumeShowsHistory(t *testing.T) {
	h := newHarness(t, `{"text":"An **earlier** answer.","tool_calls":[{"name":"bash","input":{"command":"echo earlier-output"}}]}
{"text":"Finished earlier."}
`)
	h.typeText("earlier question")
	h.press(tea.KeyEnter, 0)
	h.until("the turn", isWorkDone)
	old := h.m.app.Session.ID
	h.typeText("/clear")
	h.press(tea.KeyEnter, 0)
	h.until("/clear", isWorkDone)
	h.m.entries, h.m.printed = nil, 0
	h.typeText("/resume " + old)
	h.press(tea.KeyEnter, 0)
	h.until("/resume", isWorkDone)
	got := h.transcript()
	for _, want := range []string{"resumed session " + old, "› earlier question", "An earlier answer.", "✓ bash echo earlier-output", "│ earlier-output", "Finished earlier."} {
		if !strings.Contains(got, want) {
			t.Errorf("resumed transcript lacks %q:\n%s", want, got)
		}
	}
	// The session's prompts are in the input history, even with the
	// project's own history gone (a session from another directory).
	h.m.hist = history{}
	h.m.printHistory(h.m.app.Session.Messages())
	h.press(tea.KeyUp, 0)
	if got := h.m.input.Value(); got != "earlier question" {
		t.Errorf("up after resume shows %q, want the session's prompt", got)
	}
}

// TestModelCtrlOExpandsOutput: long tool output is collapsed with a
// count; ctrl+o opens the transcript view with all of it.
func TestModelCtrlOExpandsOutput(t *testing.T) {
	h := newHarness(t, `{"tool_calls":[{"name":"bash","input":{"command":"seq 1 12"}}]}
{"text":"counted"}
`)
	h.typeText("count")
	h.press(tea.KeyEnter, 0)
	h.until("the turn", isWorkDone)
	got := h.transcript()
	if !strings.Contains(got, "│ … 9 more lines (ctrl+o shows them)") || strings.Contains(got, "│ 12") {
		t.Fatalf("output not collapsed with a count:\n%s", got)
	}
	h.press('o', tea.ModCtrl)
	got = h.view()
	if !strings.Contains(got, "  │ 12") || !strings.Contains(got, "transcript · lines") || strings.Contains(got, "more lines") {
		t.Errorf("ctrl+o did not show the whole output:\n%s", got)
	}
	h.press(tea.KeyEscape, 0)
	if got := h.view(); strings.Contains(got, "transcript · lines") {
		t.Errorf("esc left the transcript view open:\n%s", got)
	}
}

// TestModelRetriesShowOneLine: retries update one line in the view and
// leave nothing in the transcript; the answer clears the line.
func TestModelRetriesShowOneLine(t *testing.T) {
	h := newHarness(t, `{"text":"x"}`)
	h.m.busy = "thinking"
	for i := 1; i <= 3; i++ {
		h.m.event(agent.Event{Type: agent.EventRetry, Err: &llm.APIError{Status: 429}, Delay: 4 * time.Second, Retry: i, Retries: 5})
	}
	v := h.view()
	if strings.Count(v, "retrying in") != 1 || !strings.Contains(v, "(429 rate limited), 3/5") {
		t.Errorf("want one retry line at 3/5:\n%s", v)
	}
	if got := h.transcript(); strings.Contains(got, "retrying") {
		t.Errorf("retries printed into the transcript:\n%s", got)
	}
	h.m.event(agent.Event{Type: agent.EventText, Text: "hello"})
	if v := h.view(); strings.Contains(v, "retrying") {
		t.Errorf("retry line stays after the answer started:\n%s", v)
	}
	h.m.busy = ""
}

// TestModelFollowsTerminalBackground: a light background gets the light
// markdown style; GLAMOUR_STYLE, when set, stays.
func TestModelFollowsTerminalBackground(t *testing.T) {
	h := newHarness(t, `{"text":"x"}`)
	h.m.update(tea.BackgroundColorMsg{Color: color.White})
	if h.m.md.style != "light" {
		t.Errorf("light background: style %q, want light", h.m.md.style)
	}
	h.m.update(tea.BackgroundColorMsg{Color: color.Black})
	if h.m.md.style != "dark" {
		t.Errorf("dark background: style %q, want dark", h.m.md.style)
	}
	m := newModel(context.Background(), h.m.hs, h.m.br, colorprofile.ANSI256, []string{"GLAMOUR_STYLE=dracula"})
	m.update(tea.BackgroundColorMsg{Color: color.White})
	if m.md.style != "dracula" {
		t.Errorf("GLAMOUR_STYLE=dracula became %q", m.md.style)
	}
}

// TestModelCtrlOExpandsDiff: a long diff (here a new file of 20 lines) is
// collapsed with a count; ctrl+o's transcript view shows all of it.
func TestModelCtrlOExpandsDiff(t *testing.T) {
	h := newHarness(t, `{"tool_calls":[{"name":"write","input":{"path":"twenty.txt","content":"l1\nl2\nl3\nl4\nl5\nl6\nl7\nl8\nl9\nl10\nl11\nl12\nl13\nl14\nl15\nl16\nl17\nl18\nl19\nl20\n"}}]}
{"text":"written"}
`)
	h.typeText("write it")
	h.press(tea.KeyEnter, 0)
	h.until("the turn", isWorkDone)
	got := h.transcript()
	if !strings.Contains(got, "│ created, 20 lines") || !strings.Contains(got, "│ 12 + l12") || strings.Contains(got, "+ l13") ||
		!strings.Contains(got, "│ … 8 more diff lines (ctrl+o shows them)") {
		t.Fatalf("diff not collapsed with a count:\n%s", got)
	}
	h.press('o', tea.ModCtrl)
	got = h.view()
	if !strings.Contains(got, "│ 20 + l20") {
		t.Errorf("ctrl+o did not show the whole diff:\n%s", got)
	}
}

// TestModelRendersMarkdownWhileStreaming: finished blocks of a streaming
// answer show rendered; the open block shows as typed.
func TestModelRendersMarkdownWhileStreaming(t *testing.T) {
	h := newHarness(t, `{"text":"x"}`)
	h.m.busy = "thinking"
	h.m.event(agent.Event{Type: agent.EventText, Text: "A **bold** start.\n\nNow **half"})
	v := h.view()
	if !strings.Contains(v, "A bold start.") || strings.Contains(v, "**bold**") {
		t.Errorf("the finished block is not rendered:\n%s", v)
	}
	if !strings.Contains(v, "Now **half") {
		t.Errorf("the open block is not shown as it is:\n%s", v)
	}
	h.m.busy = ""
}

// TestModelHistoryPersistsPerProject: what was sent comes back with up
// in the next session of the same project, not in another project's.
func TestModelHistoryPersistsPerProject(t *testing.T) {
	h := newHarness(t, `{"text":"one"}`)
	h.typeText("/help")
	h.press(tea.KeyEnter, 0)
	h.until("/help", isWorkDone)
	h.m.input.SetValue("line one\nline two")
	h.press(tea.KeyEnter, 0)
	h.until("the turn", isWorkDone)

	next := newModel(context.Background(), h.m.hs, h.m.br, colorprofile.ASCII, nil)
	next.Init()
	h.m = next
	h.press(tea.KeyUp, 0)
	if got := next.input.Value(); got != "line one\nline two" {
		t.Errorf("up in the next session = %q, want the last input", got)
	}
	next.input.Reset()
	next.hist.reset()
	h.press(tea.KeyUp, 0)
	h.press(tea.KeyUp, 0) // to the first line of the two-line entry
	h.press(tea.KeyUp, 0)
	if got := next.input.Value(); got != "/help" {
		t.Errorf("up past the two-line entry = %q, want /help", got)
	}

	other := t.TempDir()
	if f1, f2 := historyFile(h.m.app.BaseDir, h.m.app.WorkDir), historyFile(h.m.app.BaseDir, other); f1 == f2 {
		t.Errorf("two projects share the history file %s", f1)
	}
}

// TestModelShellAndMentions: !cmd runs a command and its output rides
// on the next message; @path attaches a file (Tab completes it); the
// scripted model checks what it received.
func TestModelShellAndMentions(t *testing.T) {
	h := newHarness(t, `{"text":"seen the output","expect":{"last_user_contains":"<bash-input>echo hi-from-shell</bash-input>\n<bash-output>hi-from-shell</bash-output>\n\nwhat did it say?"}}
{"text":"read the file","expect":{"last_user_contains":"look at @notes.txt please\n\n<file path=\"notes.txt\">\nnote-content\n</file>"}}
`)
	writeFile(t, filepath.Join(h.m.app.WorkDir, "notes.txt"), "note-content\n")

	h.typeText("!echo hi-from-shell")
	h.press(tea.KeyEnter, 0)
	h.until("the command", isWorkDone)
	got := h.transcript()
	if !strings.Contains(got, "✓ ! echo hi-from-shell · exit 0") || !strings.Contains(got, "│ hi-from-shell") {
		t.Fatalf("the command and its output not shown:\n%s", got)
	}
	h.typeText("what did it say?")
	h.press(tea.KeyEnter, 0)
	h.until("the turn", isWorkDone)
	if got := h.transcript(); !strings.Contains(got, "seen the output") {
		t.Fatalf("the model did not get the output:\n%s", got)
	}

	h.typeText("look at @no")
	h.press(tea.KeyTab, 0)
	if v := h.m.input.Value(); v != "look at @notes.txt " {
		t.Fatalf("tab made %q, want the mention completed (the @ list's choice, then a space)", v)
	}
	h.typeText("please")
	h.press(tea.KeyEnter, 0)
	h.until("the turn", isWorkDone)
	got = h.transcript()
	if !strings.Contains(got, "read the file") || !strings.Contains(got, "attached @notes.txt (1 line)") {
		t.Errorf("the file was not attached:\n%s", got)
	}
}

func TestAttachMentionsNotes(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "bin.dat"), "a\x00b")
	os.MkdirAll(filepath.Join(dir, "sub"), 0o755)
	text, _, notes, _ := attachMentions("see @missing.go, @sub and @bin.dat; mail me@example.com", dir, "", nil)
	if text != "see @missing.go, @sub and @bin.dat; mail me@example.com" {
		t.Errorf("text changed with nothing attachable: %q", text)
	}
	want := []string{"@missing.go: no such file in " + dir + "; sent as text", "@sub is a directory; only files are attached", "@bin.dat is not text, a picture or a PDF; not attached"}
	if d := cmp.Diff(want, notes); d != "" {
		t.Errorf("notes (-want +got):\n%s", d)
	}
}

// An @path the Read deny rules cover is not attached, also through a link
// in the project; the note names the rule.
func TestAttachMentionsDenied(t *testing.T) {
	dir, home := t.TempDir(), t.TempDir()
	writeFile(t, filepath.Join(home, ".aws", "credentials"), "AKIA\n")
	writeFile(t, filepath.Join(dir, "open.txt"), "hello\n")
	if err := os.Symlink(filepath.Join(home, ".aws"), filepath.Join(dir, "aws")); err != nil {
		t.Skip(err)
	}
	deny, err := permission.ParseRules("Read(~/.aws/**)")
	if err != nil {
		t.Fatal(err)
	}
	p := permission.New(permission.Config{Rules: permission.Rules{Deny: deny}, WorkDir: dir, Home: home})
	text, _, notes, _ := attachMentions("see @aws/credentials and @open.txt", dir, "", p.DenyRead)
	if strings.Contains(text, "AKIA") || !strings.Contains(text, "<file path=\"open.txt\">\nhello\n</file>") {
		t.Errorf("text: %q", text)
	}
	want := []string{"@aws/credentials is not attached: deny rule Read(~/.aws/**)", "attached @open.txt (1 line)"}
	if d := cmp.Diff(want, notes); d != "" {
		t.Errorf("notes (-want +got):\n%s", d)
	}
}

// A picture mentioned with @, or its path pasted alone, is attached as an
// image (issue 15 item 5); the text stays as typed.
func TestAttachMentionsImages(t *testing.T) {
	dir := t.TempDir()
	png := "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89"
	gif := "GIF89a\x01\x00\x01\x00\x00\x00\x00;"
	writeFile(t, filepath.Join(dir, "dot.png"), png)
	shot := filepath.Join(t.TempDir(), "Screenshot.gif")
	writeFile(t, shot, gif)
	writeFile(t, filepath.Join(dir, "fake.png"), "not a picture\n")
	in := "what is @dot.png and " + shot + " ? and @fake.png"
	text, images, notes, _ := attachMentions(in, dir, "", nil)
	if !strings.HasPrefix(text, in) || !strings.Contains(text, `<file path="fake.png">`) {
		t.Errorf("text: %q", text)
	}
	want := []llm.Image{
		{MediaType: "image/gif", Data: base64.StdEncoding.EncodeToString([]byte(gif))},
		{MediaType: "image/png", Data: base64.StdEncoding.EncodeToString([]byte(png))},
	}
	if d := cmp.Diff(want, images); d != "" {
		t.Errorf("images (-want +got):\n%s", d)
	}
	wantNotes := []string{"attached " + shot + " (image/gif picture, 1 KB)", "attached dot.png (image/png picture, 1 KB)", "attached @fake.png (1 line)"}
	if d := cmp.Diff(wantNotes, notes); d != "" {
		t.Errorf("notes (-want +got):\n%s", d)
	}
}

func TestEditorCommand(t *testing.T) {
	for _, tc := range []struct {
		env  []string
		want []string
	}{
		{nil, []string{"vi"}},
		{[]string{"EDITOR=nano"}, []string{"nano"}},
		{[]string{"EDITOR=nano", "VISUAL=code --wait"}, []string{"code", "--wait"}},
		{[]string{"VISUAL= ", "EDITOR=hx"}, []string{"hx"}},
	} {
		if d := cmp.Diff(tc.want, editorCommand(tc.env)); d != "" {
			t.Errorf("env %q (-want +got):\n%s", tc.env, d)
		}
	}
}

func TestModelEditedInput(t *testing.T) {
	h := newHarness(t, `{"text":"x"}`)
	h.typeText("draft")
	path := filepath.Join(t.TempDir(), "input.md")
	writeFile(t, path, "written in the editor\nsecond line\n")
	h.m.update(editedMsg{path: path, editor: "vi"})
	if v := h.m.input.Value(); v != "written in the editor\nsecond line" {
		t.Errorf("input after the editor = %q", v)
	}
	if _, err := os.Stat(path); err == nil {
		t.Error("the editor's file was left behind")
	}
	writeFile(t, path, "ignored")
	h.m.update(editedMsg{path: path, editor: "nope", err: errors.New("exit status 1")})
	if v := h.m.input.Value(); v != "written in the editor\nsecond line" {
		t.Errorf("a failed editor changed the input to %q", v)
	}
	if got := h.transcript(); !strings.Contains(got, "the editor nope failed: exit status 1; set $VISUAL or $EDITOR") {
		t.Errorf("a failed editor is not explained:\n%s", got)
	}
}

// TestModelQueueRunsAfterTrustAnswer: what was sent during the start
// runs once the trust question is answered, yes or no.
func TestModelQueueRunsAfterTrustAnswer(t *testing.T) {
	h := newHarness(t, `{"text":"after the question"}`)
	h.m.untrusted = 1
	h.m.ask(promptTrust)
	h.m.queue = []string{"typed during the start"}
	h.typeText("n")
	h.press(tea.KeyEnter, 0)
	if h.m.busy == "" {
		t.Fatal("the queued message did not start after the answer")
	}
	h.until("the turn", isWorkDone)
	if got := h.transcript(); !strings.Contains(got, "after the question") {
		t.Errorf("queued message not answered:\n%s", got)
	}
}

// allowEdits is the rules Bash and Edit.
func allowEdits(t *testing.T) []permission.Rule {
	t.Helper()
	r, err := permission.ParseRules("Bash Edit")
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestAttachPDF: @file.pdf attaches a PDF for a model that reads them;
// one that does not is refused before the request, naming the file; an
// oversized PDF is not attached, and says why.
func TestAttachPDF(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "report.pdf"), []byte("%PDF-1.4\n% test\n"), 0o644)
	_, images, notes, refused := attachMentions("summarise @report.pdf", dir, "anthropic/claude-sonnet-4-5", nil)
	if refused != "" || len(images) != 1 || images[0].MediaType != "application/pdf" || !strings.Contains(strings.Join(notes, "|"), "attached report.pdf (PDF, 1 KB)") {
		t.Errorf("claude: images %d, notes %q, refused %q", len(images), notes, refused)
	}
	_, _, _, refused = attachMentions("summarise @report.pdf", dir, "openai/gpt-3.5-turbo", nil)
	if refused != "report.pdf is a PDF, and openai/gpt-3.5-turbo does not read PDFs; the message was not sent (switch with /model, or remove the file)" {
		t.Errorf("refusal %q", refused)
	}
	big := make([]byte, pdfMax+1)
	copy(big, "%PDF-1.4")
	os.WriteFile(filepath.Join(dir, "big.pdf"), big, 0o644)
	_, images, notes, _ = attachMentions("@big.pdf", dir, "anthropic/claude-sonnet-4-5", nil)
	if len(images) != 0 || !strings.Contains(strings.Join(notes, "|"), "@big.pdf is a 20 MB PDF; PDFs over 20 MB are not attached") {
		t.Errorf("big: images %d, notes %q", len(images), notes)
	}
}
