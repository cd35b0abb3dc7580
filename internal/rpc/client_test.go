package rpc

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"go.uber.org/goleak"

	"github.com/synaps-cli/synaps/internal/host"
	"github.com/synaps-cli/synaps/internal/host/hosttest"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// peer is a program driving a session over Lines, as a bridge drives
// `synaps rpc`: it writes command lines and reads event lines.
type peer struct {
	t *testing.T
	// raw: the commands sent are not checked against the schema (the
	// bad-input test's).
	raw    bool
	in     *io.PipeWriter
	frames chan map[string]any
	served chan error
}

func newPeer(t *testing.T, s *host.Session) *peer {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	p := &peer{t: t, in: inW, frames: make(chan map[string]any, 1000), served: make(chan error, 1)}
	go func() {
		p.served <- Serve(context.Background(), s, Lines(inR, outW), Options{Name: "test"})
		outW.Close()
	}()
	go func() {
		defer close(p.frames)
		sc := bufio.NewScanner(outR)
		sc.Buffer(nil, 8<<20)
		for sc.Scan() {
			var f map[string]any
			_, ev := schemas(t)
			conforms(t, ev, "event", sc.Bytes())
			if err := json.Unmarshal(sc.Bytes(), &f); err != nil {
				t.Errorf("rpc wrote a line that is not JSON: %q", sc.Text())
				continue
			}
			p.frames <- f
		}
	}()
	t.Cleanup(func() {
		inW.Close()
		for range p.frames {
		}
	})
	if f := p.next(); f["type"] != "ready" || f["protocol_version"] != float64(1) || f["session_id"] != s.ID() {
		t.Fatalf("first frame = %v; want ready", f)
	}
	return p
}

func (p *peer) send(line string) {
	p.t.Helper()
	if !p.raw {
		cmd, _ := schemas(p.t)
		conforms(p.t, cmd, "command", []byte(line))
	}
	if _, err := io.WriteString(p.in, line+"\n"); err != nil {
		p.t.Fatal(err)
	}
}

func (p *peer) next() map[string]any {
	p.t.Helper()
	f, ok := <-p.frames
	if !ok {
		p.t.Fatal("rpc ended")
	}
	return f
}

// until reads frames up to the first of type typ with id (id "" for
// any) and returns them all, it last.
func (p *peer) until(typ, id string) []map[string]any {
	p.t.Helper()
	var seen []map[string]any
	for {
		f := p.next()
		seen = append(seen, f)
		if f["type"] == typ && (id == "" || f["id"] == id) {
			return seen
		}
	}
}

// both reads frames until it has seen one of type a with id and one of
// type b (events and responses travel apart, in either order).
func (p *peer) both(a, id, b string) []map[string]any {
	p.t.Helper()
	var seen []map[string]any
	var gotA, gotB bool
	for !gotA || !gotB {
		f := p.next()
		seen = append(seen, f)
		gotA = gotA || (f["type"] == a && f["id"] == id)
		gotB = gotB || f["type"] == b
	}
	return seen
}

// last is the frame of type typ with id in fs.
func last(fs []map[string]any, typ, id string) map[string]any {
	for i := len(fs) - 1; i >= 0; i-- {
		if fs[i]["type"] == typ && fs[i]["id"] == id {
			return fs[i]
		}
	}
	return nil
}

// types lists the frames' types, message_update's event type after a
// slash.
func types(fs []map[string]any) []string {
	var out []string
	for _, f := range fs {
		t := f["type"].(string)
		if e, ok := f["event"].(map[string]any); ok {
			t += "/" + e["type"].(string)
		}
		out = append(out, t)
	}
	return out
}

func open(t *testing.T, replies ...hosttest.Reply) (*host.Session, *hosttest.ModelServer) {
	t.Helper()
	srv := hosttest.NewModelServer(t, replies...)
	s, err := host.New().Open(context.Background(), srv.Options(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close(context.Background()) })
	return s, srv
}

// drop is a frame without what changes from run to run.
func drop(f map[string]any, keys ...string) map[string]any {
	for _, k := range keys {
		delete(f, k)
	}
	return f
}

func TestPrompt(t *testing.T) {
	s, _ := open(t, hosttest.Reply{Bash: "echo tool-says-hi"}, hosttest.Reply{Text: "all good"})
	p := newPeer(t, s)
	p.send(`{"type":"prompt","id":"p1","message":"go"}`)
	got := p.until("response", "p1")
	want := []string{"turn_start", "message_update/toolcall_start", "message_update/toolcall_input", "message_update/toolcall_result",
		"message_update/text_delta", "agent_end", "response"}
	if diff := cmp.Diff(want, types(got)); diff != "" {
		t.Errorf("frames (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(map[string]any{"type": "message_update", "event": map[string]any{"type": "toolcall_result", "tool_id": "toolu_1", "result": "tool-says-hi\n", "is_error": false}}, got[3]); diff != "" {
		t.Errorf("tool result (-want +got):\n%s", diff)
	}
	end := got[len(got)-2]["usage"].(map[string]any)
	if end["input_tokens"] != float64(20) || end["output_tokens"] != float64(10) || end["model"] != "anthropic/claude-one" {
		t.Errorf("agent_end usage = %v; want the two requests' tokens summed", end)
	}
	if diff := cmp.Diff(map[string]any{"type": "response", "id": "p1", "command": "prompt", "ok": true}, got[len(got)-1]); diff != "" {
		t.Errorf("response (-want +got):\n%s", diff)
	}
}

func TestPromptAttachments(t *testing.T) {
	s, srv := open(t, hosttest.Reply{Text: "seen"})
	os.WriteFile(filepath.Join(s.App().WorkDir, "todo.txt"), []byte("buy milk\n"), 0o644)
	p := newPeer(t, s)
	p.send(`{"type":"prompt","id":"bad","message":"read","attachments":[{"path":"nope.txt"}]}`)
	if f := p.until("error", "bad"); !strings.Contains(f[len(f)-1]["message"].(string), "attachment nope.txt") {
		t.Errorf("missing attachment: %v", f)
	}
	p.send(`{"type":"prompt","id":"p","message":"read","attachments":[{"path":"todo.txt","name":"todo","mime":"text/plain"}]}`)
	p.until("response", "p")
	if diff := cmp.Diff([]string{"text: read\n\n<file name=\"todo\">\nbuy milk\n</file>"}, srv.Requests()[0].Messages[0].Blocks); diff != "" {
		t.Errorf("message with attachment (-want +got):\n%s", diff)
	}
}

// A prompt while one is in flight is refused with an error naming it; the
// running turn goes on. A follow_up steers it: the model's next request
// in the same turn carries the text after the tool result.
func TestPromptBusyAndFollowUpSteers(t *testing.T) {
	hold := make(chan struct{})
	s, srv := open(t, hosttest.Reply{Bash: "echo one", Hold: hold}, hosttest.Reply{Text: "done"})
	p := newPeer(t, s)
	p.send(`{"type":"prompt","id":"p1","message":"start"}`)
	srv.WaitRequest(t, 1)
	p.send(`{"type":"prompt","id":"p2","message":"again"}`)
	if f := p.until("error", "p2"); !strings.Contains(f[len(f)-1]["message"].(string), "another prompt is in flight") {
		t.Errorf("second prompt: %v", f[len(f)-1])
	}
	p.send(`{"type":"follow_up","id":"f1","message":"and then stop"}`)
	if diff := cmp.Diff(map[string]any{"type": "response", "id": "f1", "command": "follow_up", "ok": true, "steered": true}, p.until("response", "f1")[0]); diff != "" {
		t.Errorf("follow_up response (-want +got):\n%s", diff)
	}
	close(hold)
	got := p.until("response", "p1")
	if !cmp.Equal(got[len(got)-1]["ok"], true) {
		t.Errorf("prompt response: %v", got[len(got)-1])
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2 (the turn was not restarted)", len(reqs))
	}
	if diff := cmp.Diff([]string{"tool_result: one", "text: and then stop"}, reqs[1].Messages[2].Blocks); diff != "" {
		t.Errorf("second request's last message (-want +got):\n%s", diff)
	}
}

// A follow_up to an idle session is a new message, answered when done.
func TestFollowUpIdle(t *testing.T) {
	s, _ := open(t, hosttest.Reply{Text: "one"}, hosttest.Reply{Text: "two"})
	p := newPeer(t, s)
	p.send(`{"type":"prompt","id":"1","message":"first"}`)
	p.until("response", "1")
	p.send(`{"type":"follow_up","id":"2","message":"second"}`)
	got := p.until("response", "2")
	if diff := cmp.Diff(map[string]any{"type": "response", "id": "2", "command": "follow_up", "ok": true}, got[len(got)-1]); diff != "" {
		t.Errorf("follow_up response (-want +got):\n%s", diff)
	}
	if n := len(s.Messages()); n != 4 {
		t.Errorf("%d messages, want 4", n)
	}
}

func TestAbort(t *testing.T) {
	hold := make(chan struct{})
	defer close(hold)
	s, srv := open(t, hosttest.Reply{Text: "never", Hold: hold})
	p := newPeer(t, s)
	p.send(`{"type":"prompt","id":"p","message":"slow"}`)
	srv.WaitRequest(t, 1)
	p.send(`{"type":"abort","id":"a"}`)
	var prompt, abort map[string]any
	for prompt == nil || abort == nil {
		f := p.next()
		if f["type"] == "response" && f["id"] == "p" {
			prompt = f
		}
		if f["type"] == "response" && f["id"] == "a" {
			abort = f
		}
	}
	if diff := cmp.Diff(map[string]any{"type": "response", "id": "p", "command": "prompt", "ok": true, "cancelled": true}, prompt); diff != "" {
		t.Errorf("prompt response (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(map[string]any{"type": "response", "id": "a", "command": "abort", "ok": true, "aborted": true}, abort); diff != "" {
		t.Errorf("abort response (-want +got):\n%s", diff)
	}
}

func TestCompactAndNewSession(t *testing.T) {
	s, _ := open(t, hosttest.Reply{Text: "hello"}, hosttest.Reply{Text: "SUMMARY: said hello"})
	p := newPeer(t, s)
	first := s.ID()
	p.send(`{"type":"prompt","id":"p","message":"hi"}`)
	p.until("response", "p")
	p.send(`{"type":"compact","id":"c"}`)
	got := p.both("response", "c", "session_changed")
	resp := last(got, "response", "c")
	compacted := resp["session_id"]
	if compacted == first || compacted != s.ID() || resp["ok"] != true {
		t.Errorf("compact response %v (first session %s, now %s)", resp, first, s.ID())
	}
	p.send(`{"type":"new_session","id":"n"}`)
	got = p.until("response", "n")
	if id := got[len(got)-1]["session_id"]; id == compacted || id != s.ID() {
		t.Errorf("new_session response %v", got[len(got)-1])
	}
}

// A message sent while a compaction runs is refused with an error that
// says a compaction is running and when to send it again (it can be
// neither steered nor aborted); once compact is answered, a prompt runs.
func TestMessageDuringCompact(t *testing.T) {
	hold := make(chan struct{})
	s, srv := open(t, hosttest.Reply{Text: "hello"}, hosttest.Reply{Text: "SUMMARY: said hello", Hold: hold}, hosttest.Reply{Text: "again"})
	p := newPeer(t, s)
	p.send(`{"type":"prompt","id":"p","message":"hi"}`)
	p.until("response", "p")
	p.send(`{"type":"compact","id":"c"}`)
	srv.WaitRequest(t, 2) // the compaction's summary request is held
	for _, tc := range []struct{ line, id, want string }{
		{`{"type":"prompt","id":"p2","message":"next"}`, "p2", "prompt refused: a compaction is running (compact); send it again after compact's response"},
		{`{"type":"follow_up","id":"f2","message":"next"}`, "f2", "follow_up refused: a compaction is running (compact); send it again after compact's response"},
		{`{"type":"steer","id":"s2","message":"next"}`, "s2", "steer refused: a compaction is running (compact); send it again after compact's response"},
	} {
		p.send(tc.line)
		got := p.until("error", tc.id)
		if diff := cmp.Diff(map[string]any{"type": "error", "id": tc.id, "message": tc.want}, got[len(got)-1]); diff != "" {
			t.Errorf("%s during compact (-want +got):\n%s", tc.id, diff)
		}
	}
	close(hold)
	p.both("response", "c", "session_changed")
	p.send(`{"type":"prompt","id":"p3","message":"next"}`)
	got := p.until("response", "p3")
	if diff := cmp.Diff(map[string]any{"type": "response", "id": "p3", "command": "prompt", "ok": true}, got[len(got)-1]); diff != "" {
		t.Errorf("prompt after compact (-want +got):\n%s", diff)
	}
}

func TestGetMessagesStatsState(t *testing.T) {
	s, _ := open(t, hosttest.Reply{Text: "hello there"})
	p := newPeer(t, s)
	p.send(`{"type":"prompt","id":"p","message":"hi"}`)
	p.until("response", "p")
	p.send(`{"type":"get_messages","id":"m"}`)
	msgs := p.until("response", "m")[0]["messages"]
	want := []any{
		map[string]any{"role": "user", "content": []any{map[string]any{"type": "text", "text": "hi"}}},
		map[string]any{"role": "assistant", "content": []any{map[string]any{"type": "text", "text": "hello there"}}},
	}
	if diff := cmp.Diff(want, msgs); diff != "" {
		t.Errorf("get_messages (-want +got):\n%s", diff)
	}
	p.send(`{"type":"get_session_stats","id":"st"}`)
	stats := drop(p.until("response", "st")[0], "cost")
	wantStats := map[string]any{"type": "response", "id": "st", "command": "get_session_stats", "session_id": s.ID(), "model": "anthropic/claude-one",
		"message_count": float64(2), "requests": float64(1), "input_tokens": float64(10), "output_tokens": float64(5),
		"cache_read_input_tokens": float64(0), "cache_creation_input_tokens": float64(0)}
	if diff := cmp.Diff(wantStats, stats); diff != "" {
		t.Errorf("get_session_stats (-want +got):\n%s", diff)
	}
	p.send(`{"type":"get_state","id":"g"}`)
	wantState := map[string]any{"type": "response", "id": "g", "command": "get_state", "streaming": false, "busy": false, "activity": "",
		"model": "anthropic/claude-one", "session_id": s.ID(), "message_count": float64(2), "cwd": s.App().WorkDir, "clients": float64(1)}
	if diff := cmp.Diff(wantState, p.until("response", "g")[0]); diff != "" {
		t.Errorf("get_state (-want +got):\n%s", diff)
	}
}

func TestModels(t *testing.T) {
	s, srv := open(t, hosttest.Reply{Text: "ok"})
	p := newPeer(t, s)
	p.send(`{"type":"get_available_models","id":"l"}`)
	models := p.until("response", "l")[0]["models"].([]any)
	var ids []string
	for _, m := range models {
		ids = append(ids, m.(map[string]any)["model_id"].(string))
	}
	if !strings.Contains(strings.Join(ids, " "), "anthropic/claude-one") {
		t.Errorf("models %v lack the server's claude-one", ids)
	}
	p.send(`{"type":"set_model","id":"m","model":"anthropic/claude-two"}`)
	if got := last(p.both("response", "m", "model_changed"), "response", "m"); got["model"] != "anthropic/claude-two" {
		t.Errorf("set_model: %v", got)
	}
	p.send(`{"type":"set_model","id":"bad","model":"nosuch/provider-x"}`)
	if f := p.until("error", "bad"); !strings.HasPrefix(f[len(f)-1]["message"].(string), "set_model: ") {
		t.Errorf("bad model: %v", f[len(f)-1])
	}
	p.send(`{"type":"prompt","id":"p","message":"hi"}`)
	p.until("response", "p")
	if reqs := srv.Requests(); len(reqs) != 1 {
		t.Errorf("%d requests", len(reqs))
	}
}

// Bad input never ends rpc: each gets an error event, and the next
// command is answered.
func TestBadFrames(t *testing.T) {
	s, _ := open(t)
	p := newPeer(t, s)
	p.raw = true
	for _, tc := range []struct{ line, id, msg string }{
		{`{"type":`, "", "not a JSON command"},
		{`[1,2]`, "", "not a command: got a JSON array"},
		{`{"type":"prompt","id":5,"message":"x"}`, "", `field "id" must be a string, got a JSON number`},
		{`{"type":"prompt","id":"a","attachments":"x"}`, "", `field "attachments" must be an array of attachments, got a JSON string`},
		{`{"id":"t"}`, "t", `the command has no "type"`},
		{`{"type":"fly","id":"u"}`, "u", `unknown command type "fly"`},
		{`{"type":"get_state"}`, "", "command get_state has no id"},
		{`{"type":"prompt","id":"e"}`, "e", `prompt needs a "message"`},
		{`{"type":"prompt","id":"e2","message":"  "}`, "e2", "the message is empty"},
		{`{"type":"set_model","id":"m"}`, "m", `set_model needs a "model"`},
		{`{"type":"prompt","id":"big","message":"` + strings.Repeat("x", MaxFrame) + `"}`, "", "frame larger than 1048576 bytes"},
	} {
		p.send(tc.line)
		f := p.next()
		wantID := any(nil)
		if tc.id != "" {
			wantID = tc.id
		}
		if f["type"] != "error" || f["id"] != wantID || !strings.Contains(f["message"].(string), tc.msg) {
			t.Errorf("%.40s: got %v; want an error with id %v saying %q", tc.line, f, wantID, tc.msg)
		}
	}
	p.send(`{"type":"get_state","id":"ok"}`)
	if f := p.next(); f["id"] != "ok" || f["type"] != "response" {
		t.Errorf("after bad frames: %v", f)
	}
}

// shutdown ends the client at once; the session lives on for the caller.
func TestShutdown(t *testing.T) {
	s, _ := open(t)
	p := newPeer(t, s)
	p.send(`{"type":"shutdown"}`)
	if err := <-p.served; err != nil {
		t.Errorf("Serve after shutdown: %v", err)
	}
	if _, ok := <-p.frames; ok {
		t.Error("frames after shutdown")
	}
	if st := s.State(); st.Subscribers != 0 {
		t.Errorf("%d subscribers left", st.Subscribers)
	}
}
