package host

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"go.uber.org/goleak"

	"github.com/synaps-cli/synaps/internal/agent"
	"github.com/synaps-cli/synaps/internal/host/hosttest"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// collect reads sub until the turn's EventDone and returns the events.
func collect(t *testing.T, sub *Subscription) []Event {
	t.Helper()
	var evs []Event
	for ev := range sub.C {
		evs = append(evs, ev)
		if ev.Type == EventDone {
			return evs
		}
	}
	t.Fatalf("subscription ended before the turn: %v", sub.Err())
	return nil
}

// kinds lists the events' types and texts that a test compares: the
// edges of the turn, steering and tool calls.
func kinds(evs []Event) []string {
	var out []string
	for _, ev := range evs {
		switch ev.Type {
		case EventPrompt:
			s := "prompt: " + ev.Text
			if ev.Steered {
				s += " (steered)"
			}
			out = append(out, s)
		case agent.EventSteer:
			out = append(out, "steer: "+ev.Text)
		case agent.EventToolStart:
			out = append(out, "tool_start: "+ev.Tool.Name)
		case EventDone:
			s := "done"
			if ev.Err != nil {
				s += ": " + ev.Err.Error()
			}
			out = append(out, s)
		}
	}
	return out
}

// Text sent while a turn runs joins that turn at its next model request,
// after the tool results in flight: the request carries the prompt once,
// the model's tool call, then the result and the steered text in one user
// message — the turn was not restarted (issue 24, item 3).
func TestSteerJoinsTheRunningTurn(t *testing.T) {
	hold := make(chan struct{})
	srv := hosttest.NewModelServer(t, reply{Bash: "echo listed", Hold: hold}, reply{Text: "counted"})
	s := openSession(t, New(), srv)
	sub := s.Subscribe(0)
	if err := s.Prompt(Input{Text: "list the files"}); err != nil {
		t.Fatal(err)
	}
	srv.WaitRequest(t, 1)
	steered, err := s.Steer("and count them")
	if err != nil || !steered {
		t.Fatalf("Steer mid-turn = %v, %v; want steered", steered, err)
	}
	close(hold)
	evs := collect(t, sub)
	if err := s.Wait(context.Background()); err != nil {
		t.Fatal(err)
	}
	want := []request{
		{Messages: []message{{Role: "user", Blocks: []string{"text: list the files"}}}},
		{Messages: []message{
			{Role: "user", Blocks: []string{"text: list the files"}},
			{Role: "assistant", Blocks: []string{"tool_use: bash"}},
			{Role: "user", Blocks: []string{"tool_result: listed", "text: and count them"}},
		}},
	}
	if diff := cmp.Diff(want, srv.Requests()); diff != "" {
		t.Errorf("requests at the model (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"prompt: list the files", "tool_start: bash", "steer: and count them", "done"}, kinds(evs)); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
}

// Text steered into a turn whose model then stops (no further request in
// that turn) is not lost: it is sent as a message of its own, in order,
// each steered text one message.
func TestSteerAfterTheLastRequestIsTheNextMessage(t *testing.T) {
	hold := make(chan struct{})
	srv := hosttest.NewModelServer(t, reply{Text: "one", Hold: hold}, reply{Text: "two"}, reply{Text: "three"})
	s := openSession(t, New(), srv)
	sub := s.Subscribe(0)
	if err := s.Prompt(Input{Text: "first"}); err != nil {
		t.Fatal(err)
	}
	srv.WaitRequest(t, 1)
	for _, text := range []string{"second", "third"} {
		if steered, err := s.Steer(text); err != nil || !steered {
			t.Fatalf("Steer(%q) = %v, %v", text, steered, err)
		}
	}
	close(hold)
	evs := collect(t, sub)
	var users [][]string
	for _, r := range srv.Requests() {
		var u []string
		for _, m := range r.Messages {
			if m.Role == "user" {
				u = append(u, m.Blocks...)
			}
		}
		users = append(users, u)
	}
	want := [][]string{{"text: first"}, {"text: first", "text: second"}, {"text: first", "text: second", "text: third"}}
	if diff := cmp.Diff(want, users); diff != "" {
		t.Errorf("user messages per request (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"prompt: first", "prompt: second (steered)", "prompt: third (steered)", "done"}, kinds(evs)); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
}

// An idle session takes steering as a new message.
func TestSteerIdleStartsATurn(t *testing.T) {
	srv := hosttest.NewModelServer(t, reply{Text: "hello"})
	s := openSession(t, New(), srv)
	sub := s.Subscribe(0)
	steered, err := s.Steer("wake up")
	if err != nil || steered {
		t.Fatalf("Steer idle = %v, %v; want a new message", steered, err)
	}
	if diff := cmp.Diff([]string{"prompt: wake up (steered)", "done"}, kinds(collect(t, sub))); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
	if got := len(s.Messages()); got != 2 {
		t.Errorf("%d messages, want 2", got)
	}
}

// While a turn runs, what needs an idle session is refused with ErrBusy;
// Abort ends the turn with context.Canceled and the session takes
// prompts again.
func TestBusyAndAbort(t *testing.T) {
	hold := make(chan struct{})
	defer close(hold)
	srv := hosttest.NewModelServer(t, reply{Text: "never", Hold: hold}, reply{Text: "after"})
	s := openSession(t, New(), srv)
	sub := s.Subscribe(0)
	if err := s.Prompt(Input{Text: "slow"}); err != nil {
		t.Fatal(err)
	}
	srv.WaitRequest(t, 1)
	if st := s.State(); !st.Busy || !st.Streaming {
		t.Errorf("State mid-turn = %+v; want busy, streaming", st)
	}
	for name, err := range map[string]error{
		"Prompt":   s.Prompt(Input{Text: "again"}),
		"SetModel": s.SetModel("anthropic/claude-two"),
		"Compact":  s.Compact(context.Background()),
	} {
		if !errors.Is(err, ErrBusy) {
			t.Errorf("%s mid-turn = %v; want ErrBusy", name, err)
		}
	}
	if !s.Abort() {
		t.Fatal("Abort found no turn")
	}
	if err := s.Wait(context.Background()); !errors.Is(err, context.Canceled) {
		t.Errorf("Wait after Abort = %v; want context.Canceled", err)
	}
	if diff := cmp.Diff([]string{"prompt: slow", "done: context canceled"}, kinds(collect(t, sub))); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
	if err := s.Run(context.Background(), Input{Text: "now"}); err != nil {
		t.Errorf("Run after abort: %v", err)
	}
	if st := s.State(); st.Busy {
		t.Errorf("State after the turn = %+v; want idle", st)
	}
}

// Every subscriber sees the same numbered events; one that does not read
// is dropped with ErrSlow and the turn goes on.
func TestFanOutAndSlowSubscriber(t *testing.T) {
	srv := hosttest.NewModelServer(t, reply{Bash: "echo a"}, reply{Text: "all done here"})
	s := openSession(t, New(), srv)
	subs := []*Subscription{s.Subscribe(0), s.Subscribe(0), s.Subscribe(0)}
	stalled := s.Subscribe(1)
	if err := s.Run(context.Background(), Input{Text: "go"}); err != nil {
		t.Fatal(err)
	}
	var first []Event
	for i, sub := range subs {
		evs := collect(t, sub)
		for j, ev := range evs {
			if ev.Seq != sub.Start+uint64(j)+1 {
				t.Errorf("subscriber %d: event %d has Seq %d, want %d", i, j, ev.Seq, sub.Start+uint64(j)+1)
			}
		}
		if i == 0 {
			first = evs
		} else if diff := cmp.Diff(kinds(first), kinds(evs)); diff != "" {
			t.Errorf("subscriber %d saw other events (-first +this):\n%s", i, diff)
		}
	}
	n := 0
	for range stalled.C {
		n++
	}
	if n != 1 || !errors.Is(stalled.Err(), ErrSlow) {
		t.Errorf("stalled subscriber: %d events, Err %v; want 1 and ErrSlow", n, stalled.Err())
	}
	if got := s.State().Subscribers; got != 3 {
		t.Errorf("%d subscribers left, want 3", got)
	}
	subs[0].Close()
	if _, ok := <-subs[0].C; ok || subs[0].Err() != nil {
		t.Errorf("after Close: C open or Err %v", subs[0].Err())
	}
}

// Attachments are read by the host: a text file goes in the message in a
// <file> block; a missing one is refused before the turn, naming it.
func TestAttachments(t *testing.T) {
	srv := hosttest.NewModelServer(t, reply{Text: "read it"})
	s := openSession(t, New(), srv)
	writeFile(t, s.App().WorkDir+"/notes.txt", "remember the milk\n")
	err := s.Prompt(Input{Text: "see", Attachments: []Attachment{{Path: "missing.txt"}}})
	if err == nil || !strings.Contains(err.Error(), "attachment missing.txt") {
		t.Errorf("missing attachment: %v", err)
	}
	if err := s.Run(context.Background(), Input{Text: "see", Attachments: []Attachment{{Path: "notes.txt"}}}); err != nil {
		t.Fatal(err)
	}
	got := srv.Requests()[0].Messages[0].Blocks
	want := []string{"text: see\n\n<file name=\"notes.txt\">\nremember the milk\n</file>"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("message with attachment (-want +got):\n%s", diff)
	}
}

// New starts an empty session and says so to subscribers; the host
// finds it by its new id.
func TestNewSession(t *testing.T) {
	srv := hosttest.NewModelServer(t, reply{Text: "one"})
	h := New()
	s := openSession(t, h, srv)
	if err := s.Run(context.Background(), Input{Text: "hi"}); err != nil {
		t.Fatal(err)
	}
	old := s.ID()
	sub := s.Subscribe(0)
	id, err := s.New(context.Background())
	if err != nil || id == old {
		t.Fatalf("New = %q, %v (old %q)", id, err, old)
	}
	ev := <-sub.C
	if ev.Type != EventSessionChanged || ev.Text != id || ev.SessionID != id {
		t.Errorf("event after New = %+v", ev)
	}
	if h.Find(id) != s || h.Find(old) != nil {
		t.Errorf("Find by the new id does not give the session")
	}
	if st := s.Stats(); st.Messages != 0 || st.ID != id {
		t.Errorf("Stats after New = %+v", st)
	}
}

// Close during a turn stops it and waits for it: subscribers see the
// turn end, then their subscription closes with ErrClosed; nothing
// starts on a closed session.
func TestCloseMidTurn(t *testing.T) {
	hold := make(chan struct{})
	defer close(hold)
	srv := hosttest.NewModelServer(t, reply{Text: "never", Hold: hold})
	h := New()
	s, err := h.Open(context.Background(), srv.Options(t))
	if err != nil {
		t.Fatal(err)
	}
	sub := s.Subscribe(0)
	if err := s.Prompt(Input{Text: "slow"}); err != nil {
		t.Fatal(err)
	}
	srv.WaitRequest(t, 1)
	if err := s.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	var got []string
	for ev := range sub.C {
		got = append(got, string(ev.Type))
	}
	if diff := cmp.Diff([]string{"prompt", "notice", "done"}, got); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
	if !errors.Is(sub.Err(), ErrClosed) {
		t.Errorf("subscription ended with %v, want ErrClosed", sub.Err())
	}
	if err := s.Prompt(Input{Text: "more"}); !errors.Is(err, ErrClosed) {
		t.Errorf("Prompt after Close = %v, want ErrClosed", err)
	}
	if len(h.Sessions()) != 0 {
		t.Error("the host still lists the closed session")
	}
}

// Resume goes back to a saved session: its messages are the session's
// again, subscribers hear the change, and a bad id leaves the session as
// it was, with an error naming the id.
func TestResume(t *testing.T) {
	srv := hosttest.NewModelServer(t, reply{Text: "first answer"})
	s := openSession(t, New(), srv)
	if err := s.Run(context.Background(), Input{Text: "remember this"}); err != nil {
		t.Fatal(err)
	}
	first := s.ID()
	if _, err := s.New(context.Background()); err != nil {
		t.Fatal(err)
	}
	sub := s.Subscribe(0)
	if err := s.Resume(context.Background(), "20000101-000000-nope"); err == nil || !strings.Contains(err.Error(), "20000101-000000-nope") {
		t.Errorf("Resume of a missing id: %v", err)
	}
	if err := s.Resume(context.Background(), first); err != nil {
		t.Fatal(err)
	}
	if ev := <-sub.C; ev.Type != EventSessionChanged || ev.Text != first {
		t.Errorf("event after Resume = %+v", ev)
	}
	if got := s.Messages(); len(got) != 2 || got[0].Text() != "remember this" {
		t.Errorf("messages after Resume = %+v", got)
	}
}
