package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/synaps-cli/synaps/internal/extension"
	"github.com/synaps-cli/synaps/internal/extension/exttest"
	"github.com/synaps-cli/synaps/internal/hook"
	"github.com/synaps-cli/synaps/internal/llm"
	"github.com/synaps-cli/synaps/internal/llm/anthropic"
	"github.com/synaps-cli/synaps/internal/permission"
	"github.com/synaps-cli/synaps/internal/session"
	"github.com/synaps-cli/synaps/internal/tool"
	"github.com/synaps-cli/synaps/internal/tool/builtin"
)

// Subagents end to end: the real Anthropic client against a loopback
// model server speaking the Messages API's stream, which answers each
// request by what it holds (the parent's and each child's conversations
// go to the same server, in whatever order the children make them), real
// built-in tools, real extension processes, real session files.

// modelReq is a request as the model server read it.
type modelReq struct {
	// ctx ends when the client leaves.
	ctx    context.Context
	System string
	// First is the text of the first user message (a child's prompt),
	// Last the last message's blocks as raw JSON.
	First, Body string
	Tools       []string
	// Results are the tool results of the last message, by content.
	Results []string
}

// turn is one scripted answer.
type turn struct {
	text  string
	calls []call
	// status, when set, answers with this HTTP error instead.
	status int
}

type call struct {
	id, name, input string
}

// modelServer answers Messages API requests with answer(req). It keeps
// the order in which requests arrived and were answered.
type modelServer struct {
	*httptest.Server
	answer func(r modelReq) turn
	mu     sync.Mutex
	log    []string // "arrive <first>" and "answer <first>"
	reqs   []modelReq
}

func newModelServer(t *testing.T, answer func(r modelReq) turn) *modelServer {
	m := &modelServer{answer: answer}
	m.Server = httptest.NewServer(m)
	t.Cleanup(m.Close)
	return m
}

func (m *modelServer) provider() llm.Provider {
	return anthropic.New(anthropic.Config{APIKey: "k", BaseURL: m.URL})
}

func (m *modelServer) note(s string) {
	m.mu.Lock()
	m.log = append(m.log, s)
	m.mu.Unlock()
}

func (m *modelServer) ServeHTTP(w http.ResponseWriter, hr *http.Request) {
	body, _ := io.ReadAll(hr.Body)
	var wire struct {
		System []struct {
			Text string `json:"text"`
		} `json:"system"`
		Messages []struct {
			Role    string            `json:"role"`
			Content []json.RawMessage `json:"content"`
		} `json:"messages"`
		Tools []struct {
			Name string `json:"name"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(body, &wire); err != nil {
		http.Error(w, err.Error(), 400)
		return
	}
	r := modelReq{Body: string(body), ctx: hr.Context()}
	for _, s := range wire.System {
		r.System += s.Text
	}
	for _, t := range wire.Tools {
		r.Tools = append(r.Tools, t.Name)
	}
	if len(wire.Messages) > 0 {
		for _, c := range wire.Messages[0].Content {
			var b struct{ Type, Text string }
			json.Unmarshal(c, &b)
			if b.Type == "text" {
				r.First += b.Text
			}
		}
		for _, c := range wire.Messages[len(wire.Messages)-1].Content {
			var b struct {
				Type    string          `json:"type"`
				Content json.RawMessage `json:"content"`
			}
			json.Unmarshal(c, &b)
			if b.Type == "tool_result" {
				r.Results = append(r.Results, string(b.Content))
			}
		}
	}
	m.mu.Lock()
	m.reqs = append(m.reqs, r)
	m.mu.Unlock()
	m.note("arrive " + r.First)
	t := m.answer(r)
	m.note("answer " + r.First)
	if t.status != 0 {
		http.Error(w, `{"type":"error","error":{"type":"invalid_request_error","message":"scripted failure"}}`, t.status)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	io.WriteString(w, sseTurn(t))
}

// sseTurn is t as the Messages API streams it.
func sseTurn(t turn) string {
	var b strings.Builder
	ev := func(name, data string) { fmt.Fprintf(&b, "event: %s\ndata: %s\n\n", name, data) }
	ev("message_start", `{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","content":[],"model":"claude-test","stop_reason":null,"usage":{"input_tokens":100,"output_tokens":1}}}`)
	i := 0
	if t.text != "" {
		q, _ := json.Marshal(t.text)
		ev("content_block_start", fmt.Sprintf(`{"type":"content_block_start","index":%d,"content_block":{"type":"text","text":""}}`, i))
		ev("content_block_delta", fmt.Sprintf(`{"type":"content_block_delta","index":%d,"delta":{"type":"text_delta","text":%s}}`, i, q))
		ev("content_block_stop", fmt.Sprintf(`{"type":"content_block_stop","index":%d}`, i))
		i++
	}
	for _, c := range t.calls {
		q, _ := json.Marshal(c.input)
		ev("content_block_start", fmt.Sprintf(`{"type":"content_block_start","index":%d,"content_block":{"type":"tool_use","id":%q,"name":%q,"input":{}}}`, i, c.id, c.name))
		ev("content_block_delta", fmt.Sprintf(`{"type":"content_block_delta","index":%d,"delta":{"type":"input_json_delta","partial_json":%s}}`, i, q))
		ev("content_block_stop", fmt.Sprintf(`{"type":"content_block_stop","index":%d}`, i))
		i++
	}
	stop := "end_turn"
	if len(t.calls) > 0 {
		stop = "tool_use"
	}
	ev("message_delta", `{"type":"message_delta","delta":{"stop_reason":"`+stop+`","stop_sequence":null},"usage":{"output_tokens":10}}`)
	ev("message_stop", `{"type":"message_stop"}`)
	return b.String()
}

// subRig is a parent agent with the agent tool, on a model server.
type subRig struct {
	agent  *Agent
	sess   *session.Session
	host   *extension.Host
	mu     sync.Mutex
	events []Event
}

func newSubRig(t *testing.T, base string, m *modelServer, subs *Subagents, c hook.Confirmer) *subRig {
	t.Helper()
	work := t.TempDir()
	reg := tool.NewRegistry()
	for _, bt := range builtin.All(builtin.Options{WorkDir: work}) {
		if _, err := reg.Add(bt); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := reg.Add(subs.Tool()); err != nil {
		t.Fatal(err)
	}
	host := extension.NewHost(extension.Options{BaseDir: base, Registry: reg, Version: "test"})
	if err := host.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(host.Shutdown)
	sess, err := session.Create(base, "anthropic/claude-test", work)
	if err != nil {
		t.Fatal(err)
	}
	r := &subRig{sess: sess, host: host}
	r.agent = New(Config{Provider: m.provider(), Model: "claude-test", System: "PARENT SYSTEM", Tools: reg, Hooks: host,
		Session: sess, Confirmer: c, Subagents: subs, OnEvent: func(e Event) {
			r.mu.Lock()
			r.events = append(r.events, e)
			r.mu.Unlock()
		}})
	t.Cleanup(func() { r.agent.End(context.Background()) })
	return r
}

func agentCall(id, typ, prompt string) call {
	in, _ := json.Marshal(map[string]string{"description": "task " + id, "prompt": prompt, "subagent_type": typ})
	return call{id: id, name: "agent", input: string(in)}
}

// isParent tells the parent's requests from the children's: only the
// parent's conversation starts with the user's message.
func isParent(r modelReq) bool { return strings.HasPrefix(r.First, "USER:") }

// Two agent calls in one turn run at once: each child's first request
// reaches the model server before either is answered (the server holds
// them until both are in). Their answers come back as the two tool
// results, in the model's order; the session file holds both child
// transcripts, apart from the parent's conversation; their usage is the
// parent's.
func TestSubagentsRunInParallel(t *testing.T) {
	var both sync.WaitGroup
	both.Add(2)
	arrived := make(chan struct{})
	go func() { both.Wait(); close(arrived) }()
	m := newModelServer(t, func(r modelReq) turn {
		switch {
		case isParent(r) && len(r.Results) == 0:
			return turn{text: "Splitting.", calls: []call{agentCall("toolu_A", "", "count the A files"), agentCall("toolu_B", "", "count the B files")}}
		case isParent(r):
			return turn{text: "Both done."}
		}
		both.Done()
		select {
		case <-arrived:
		case <-time.After(20 * time.Second): // a hang guard, not a measurement
			return turn{text: "ALONE"}
		}
		return turn{text: "answer to " + r.First}
	})
	r := newSubRig(t, t.TempDir(), m, &Subagents{}, nil)
	if err := r.agent.Send(context.Background(), "USER: split the work"); err != nil {
		t.Fatal(err)
	}
	// Both children arrived before either was answered.
	m.mu.Lock()
	log := append([]string(nil), m.log...)
	m.mu.Unlock()
	if d := cmp.Diff([]string{"arrive count the A files", "arrive count the B files"}, sortedPrefix(log[2:4])); d != "" {
		t.Errorf("the children's requests did not both arrive first (-want +got):\n%s\nlog: %q", d, log)
	}
	last := m.reqs[len(m.reqs)-1]
	if len(last.Results) != 2 || !strings.Contains(last.Results[0], "answer to count the A files") || !strings.Contains(last.Results[1], "answer to count the B files") {
		t.Fatalf("the parent's second request has results %q", last.Results)
	}
	d, err := session.Read(r.sess.Path)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, sa := range d.Subagents {
		got = append(got, fmt.Sprintf("%s %s %s: %s / %s", sa.Type, sa.ParentToolUseID, sa.Description, sa.Messages[0].Text(), sa.Messages[len(sa.Messages)-1].Text()))
	}
	want := []string{
		"general-purpose toolu_A task toolu_A: count the A files / answer to count the A files",
		"general-purpose toolu_B task toolu_B: count the B files / answer to count the B files",
	}
	if d := cmp.Diff(want, sortedPrefix(got)); d != "" {
		t.Errorf("child transcripts in the session file (-want +got):\n%s", d)
	}
	if n := len(d.Messages); n != 4 { // user, assistant with two calls, results, answer
		t.Errorf("the parent's conversation has %d messages, want 4 (the children's are apart)", n)
	}
	// Four requests of 100 input and 10 output tokens each.
	if u := r.agent.Usage(); u.InputTokens != 400 || u.OutputTokens != 40 {
		t.Errorf("usage = %d in, %d out; want 400, 40 (the children's added)", u.InputTokens, u.OutputTokens)
	}
	if u := d.Usage; u.InputTokens != 400 {
		t.Errorf("the session file's usage = %d input tokens, want 400", u.InputTokens)
	}
}

func sortedPrefix(s []string) []string {
	out := append([]string(nil), s...)
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[j] < out[i] {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
}

// A guard extension judges a child's calls as it judges the parent's: it
// blocks the child's rm -rf, the child's model gets the block as its tool
// result, and the guard saw the child's agent id, type and parent call.
func TestSubagentCallsPassTheGuard(t *testing.T) {
	base := t.TempDir()
	exttest.Plugin(t, base, "guard", map[string]any{
		"permissions": []string{"tools.intercept", "privacy.llm_content"},
		"hooks":       []map[string]any{{"hook": "before_tool_call", "tool": "bash"}, {"hook": "on_subagent_complete"}},
	}, exttest.Spec{Record: true, Rules: []exttest.Rule{{Hook: "before_tool_call", InputContains: "rm -rf", Result: json.RawMessage(`{"action":"block","reason":"no rm -rf"}`)}}})
	m := newModelServer(t, func(r modelReq) turn {
		switch {
		case isParent(r) && len(r.Results) == 0:
			return turn{calls: []call{agentCall("toolu_P", "", "clean up")}}
		case isParent(r):
			return turn{text: "Parent saw: " + r.Results[0]}
		case len(r.Results) == 0:
			return turn{calls: []call{{"toolu_C", "bash", `{"command":"rm -rf build"}`}}}
		}
		return turn{text: "child saw: " + r.Results[0]}
	})
	r := newSubRig(t, base, m, &Subagents{}, nil)
	if err := r.agent.Send(context.Background(), "USER: clean"); err != nil {
		t.Fatal(err)
	}
	last := m.reqs[len(m.reqs)-1]
	if !strings.Contains(last.Results[0], "child saw:") || !strings.Contains(last.Results[0], "blocked by extension guard: no rm -rf") {
		t.Fatalf("the parent got %q; want the child's answer quoting the block", last.Results[0])
	}
	var seen []string
	for _, ev := range exttest.ReadRecord(t, base+"/plugins/guard") {
		seen = append(seen, fmt.Sprintf("%v type=%v parent=%v id?=%v", ev["kind"], ev["agent_type"], ev["parent_tool_use_id"], strings.HasPrefix(fmt.Sprint(ev["agent_id"]), "a")))
	}
	want := []string{
		"before_tool_call type=general-purpose parent=toolu_P id?=true",
		"on_subagent_complete type=general-purpose parent=toolu_P id?=true",
	}
	if d := cmp.Diff(want, seen); d != "" {
		t.Errorf("what the guard saw (-want +got):\n%s", d)
	}
}

// A definition's tools list is the child's allowlist: the model is
// offered only those tools (Claude's names read as synaps's), and a call
// of another is a tool error that says which tools it has.
func TestSubagentAllowlist(t *testing.T) {
	m := newModelServer(t, func(r modelReq) turn {
		switch {
		case isParent(r) && len(r.Results) == 0:
			return turn{calls: []call{agentCall("toolu_P", "reader", "look around")}}
		case isParent(r):
			return turn{text: "ok"}
		case len(r.Results) == 0:
			return turn{calls: []call{{"toolu_C", "bash", `{"command":"touch x"}`}}}
		}
		return turn{text: "child saw: " + r.Results[0]}
	})
	subs := &Subagents{
		Definitions: []Definition{{Name: "reader", Description: "reads files", Tools: []string{"Read", "Grep"}, Prompt: "You read."}},
		ToolName:    func(n string) string { return strings.ToLower(n) },
	}
	r := newSubRig(t, t.TempDir(), m, subs, nil)
	if err := r.agent.Send(context.Background(), "USER: look"); err != nil {
		t.Fatal(err)
	}
	var child []modelReq
	for _, q := range m.reqs {
		if !isParent(q) {
			child = append(child, q)
		}
	}
	if d := cmp.Diff([]string{"grep", "read"}, child[0].Tools); d != "" {
		t.Errorf("tools offered to the child (-want +got):\n%s", d)
	}
	if child[0].System != "You read." {
		t.Errorf("child system prompt = %q, want the definition's body", child[0].System)
	}
	if want := "bash is not allowed for agent reader: its tools are grep, read."; !strings.Contains(child[1].Results[0], want) {
		t.Errorf("the child's tool result = %q, want it to say %q", child[1].Results[0], want)
	}
	if !strings.Contains(m.reqs[0].Body, "- reader: reads files (tools: Read, Grep)") {
		t.Errorf("the agent tool's description does not list the reader agent")
	}
}

// What goes wrong in a child is a clear tool error, and the parent goes
// on: an unknown type, a budget used up, a model error.
func TestSubagentErrors(t *testing.T) {
	for _, tc := range []struct {
		name, typ string
		subs      *Subagents
		child     func(r modelReq) turn
		want      string
	}{
		{"unknown type", "nope", &Subagents{}, nil,
			`agent: unknown agent type "nope"; the agent types are: general-purpose`},
		{"turn budget", "", &Subagents{MaxTurns: 2}, func(modelReq) turn {
			return turn{text: "still looking", calls: []call{{"", "ls", `{}`}}}
		}, "agent general-purpose stopped: its budget is exhausted (stopped after 2 model requests). Its last words: still looking"},
		{"token budget", "", &Subagents{MaxTokens: 150}, func(modelReq) turn {
			return turn{text: "still looking", calls: []call{{"", "ls", `{}`}}}
		}, "agent general-purpose stopped: its budget is exhausted (stopped: 220 tokens were used, the budget is 150 (token budget))"},
		{"model error", "", &Subagents{}, func(modelReq) turn { return turn{status: 400} },
			"agent general-purpose failed: model error:"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n := 0
			m := newModelServer(t, func(r modelReq) turn {
				switch {
				case isParent(r) && len(r.Results) == 0:
					return turn{calls: []call{agentCall("toolu_P", tc.typ, "do it")}}
				case isParent(r):
					return turn{text: "parent goes on"}
				}
				n++
				c := tc.child(r)
				for i := range c.calls {
					c.calls[i].id = fmt.Sprintf("toolu_c%d", n)
				}
				return c
			})
			r := newSubRig(t, t.TempDir(), m, tc.subs, nil)
			if err := r.agent.Send(context.Background(), "USER: go"); err != nil {
				t.Fatal(err)
			}
			last := m.reqs[len(m.reqs)-1]
			if !isParent(last) || len(last.Results) != 1 || !strings.Contains(last.Results[0], jsonText(tc.want)) {
				t.Fatalf("the parent's last request has results %q; want one containing %q", last.Results, tc.want)
			}
			if !strings.Contains(last.Body, `"is_error":true`) {
				t.Errorf("the result is not an error")
			}
		})
	}
}

// jsonText is s as it appears inside a JSON string.
func jsonText(s string) string {
	b, _ := json.Marshal(s)
	return string(b[1 : len(b)-1])
}

// Stopping the turn stops the children: both are waiting on the model
// when the user cancels; each agent call ends "cancelled", Send returns
// the cancellation, and the session holds a result for every call.
func TestSubagentsCancelled(t *testing.T) {
	var both sync.WaitGroup
	both.Add(2)
	m := newModelServer(t, func(r modelReq) turn {
		if isParent(r) {
			return turn{calls: []call{agentCall("toolu_A", "", "wait A"), agentCall("toolu_B", "", "wait B")}}
		}
		both.Done()
		<-r.ctx.Done() // answered only by the client going away
		return turn{status: 500}
	})
	r := newSubRig(t, t.TempDir(), m, &Subagents{}, nil)
	ctx, cancel := context.WithCancel(context.Background())
	go func() { both.Wait(); cancel() }()
	err := r.agent.Send(ctx, "USER: wait")
	if err != context.Canceled {
		t.Fatalf("Send = %v, want context.Canceled", err)
	}
	var got []string
	for _, msg := range r.sess.Messages() {
		for _, b := range msg.Content {
			if b.Type == llm.BlockToolResult {
				got = append(got, fmt.Sprintf("%s %v %s", b.ToolUseID, b.IsError, strings.SplitN(b.Content, "\n", 2)[0]))
			}
		}
	}
	want := []string{
		"toolu_A true agent general-purpose was cancelled by the user before it finished.",
		"toolu_B true agent general-purpose was cancelled by the user before it finished.",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("results (-want +got):\n%s", d)
	}
}

// kidAsker answers every question yes, noting who asked and whether
// another question was open at the same time.
type kidAsker struct {
	mu       sync.Mutex
	open     int
	overlaps int
	agents   []string
}

func (a *kidAsker) Confirm(ctx context.Context, tool string, msgs []hook.Confirm) bool {
	return a.Ask(ctx, Question{Tool: tool, Messages: msgs}) != AnswerNo
}

func (a *kidAsker) Ask(ctx context.Context, q Question) Answer {
	a.mu.Lock()
	a.open++
	if a.open > 1 {
		a.overlaps++
	}
	a.agents = append(a.agents, fmt.Sprintf("%s %s", strings.SplitN(q.Agent, " (", 2)[0], q.Tool))
	a.mu.Unlock()
	time.Sleep(20 * time.Millisecond) // leave room for a second question to barge in (none may)
	a.mu.Lock()
	a.open--
	a.mu.Unlock()
	return AnswerYes
}

// Two children ask the user at the same time (the permission mode asks
// before bash): the questions come one at a time, each naming its child.
func TestSubagentQuestionsOneAtATimeNamingTheChild(t *testing.T) {
	var both sync.WaitGroup
	both.Add(2)
	m := newModelServer(t, func(r modelReq) turn {
		switch {
		case isParent(r) && len(r.Results) == 0:
			return turn{calls: []call{agentCall("toolu_A", "", "touch A"), agentCall("toolu_B", "", "touch B")}}
		case isParent(r):
			return turn{text: "ok"}
		case len(r.Results) == 0:
			both.Done()
			both.Wait()
			return turn{calls: []call{{"toolu_" + r.First[len(r.First)-1:], "bash", `{"command":"exit 0"}`}}}
		}
		return turn{text: "done"}
	})
	ask := &kidAsker{}
	r := newSubRig(t, t.TempDir(), m, &Subagents{}, ask)
	r.agent.cfg.Permissions = permission.New(permission.Config{Mode: permission.Default, WorkDir: t.TempDir()})
	if err := r.agent.Send(context.Background(), "USER: touch both"); err != nil {
		t.Fatal(err)
	}
	if ask.overlaps != 0 {
		t.Errorf("%d questions were asked while another was open", ask.overlaps)
	}
	if d := cmp.Diff([]string{"agent general-purpose bash", "agent general-purpose bash"}, ask.agents); d != "" {
		t.Errorf("questions (-want +got):\n%s", d)
	}
}

// A definition's model runs the child: its requests go to that model's
// server, the parent's to the parent's.
func TestSubagentOwnModel(t *testing.T) {
	parent := newModelServer(t, func(r modelReq) turn {
		if len(r.Results) == 0 {
			return turn{calls: []call{agentCall("toolu_P", "fast", "quick look")}}
		}
		return turn{text: "parent got " + r.Results[0]}
	})
	other := newModelServer(t, func(r modelReq) turn { return turn{text: "answered by the other model"} })
	var asked []string
	subs := &Subagents{
		Definitions: []Definition{{Name: "fast", Model: "other-model"}},
		Resolve: func(m string) (llm.Provider, string, string, error) {
			asked = append(asked, m)
			return other.provider(), "other-id", "", nil
		},
	}
	r := newSubRig(t, t.TempDir(), parent, subs, nil)
	if err := r.agent.Send(context.Background(), "USER: look"); err != nil {
		t.Fatal(err)
	}
	if len(other.reqs) != 1 || len(parent.reqs) != 2 || !strings.Contains(other.reqs[0].Body, `"model":"other-id"`) {
		t.Fatalf("requests: %d to the parent's model, %d to the other (want 2 and 1, the other's with model other-id)", len(parent.reqs), len(other.reqs))
	}
	if !strings.Contains(parent.reqs[1].Results[0], "answered by the other model") || fmt.Sprint(asked) != "[other-model]" {
		t.Errorf("the parent got %q; Resolve was asked %v", parent.reqs[1].Results[0], asked)
	}
}

// on_subagent_complete's block keeps the child going with the reason,
// as on_message_complete's keeps the main loop going, at most
// MaxStopBlocks times; the parent then gets the child's last answer.
func TestSubagentCompleteBlockKeepsTheChildGoing(t *testing.T) {
	base := t.TempDir()
	exttest.Plugin(t, base, "nag", map[string]any{
		"permissions": []string{"privacy.llm_content"},
		"hooks":       []map[string]any{{"hook": "on_subagent_complete"}},
	}, exttest.Spec{Results: map[string]json.RawMessage{"hook:on_subagent_complete": json.RawMessage(`{"action":"block","reason":"also run the linter"}`)}})
	n := 0
	m := newModelServer(t, func(r modelReq) turn {
		switch {
		case isParent(r) && len(r.Results) == 0:
			return turn{calls: []call{agentCall("toolu_P", "", "test it")}}
		case isParent(r):
			return turn{text: "ok"}
		}
		n++
		if n > 1 && !strings.Contains(r.Body, "also run the linter") {
			t.Errorf("child request %d lacks the hook's feedback", n)
		}
		return turn{text: fmt.Sprintf("answer %d", n)}
	})
	r := newSubRig(t, base, m, &Subagents{}, nil)
	if err := r.agent.Send(context.Background(), "USER: test"); err != nil {
		t.Fatal(err)
	}
	if n != 1+MaxStopBlocks {
		t.Errorf("the child made %d requests, want %d", n, 1+MaxStopBlocks)
	}
	if last := m.reqs[len(m.reqs)-1]; !strings.HasPrefix(strings.Trim(last.Results[0], `"`), fmt.Sprintf("answer %d", n)) {
		t.Errorf("the parent got %q, want the child's last answer", last.Results[0])
	}
}

// subagent_max_parallel bounds the children of one turn: with 1, the
// second child starts only once the first has answered. Each child's
// request waits a moment for company; none may come.
func TestSubagentsParallelBound(t *testing.T) {
	var mu sync.Mutex
	inFlight, most := 0, 0
	company := make(chan struct{}, 4)
	m := newModelServer(t, func(r modelReq) turn {
		switch {
		case isParent(r) && len(r.Results) == 0:
			return turn{calls: []call{agentCall("toolu_A", "", "one"), agentCall("toolu_B", "", "two")}}
		case isParent(r):
			return turn{text: "ok"}
		}
		mu.Lock()
		inFlight++
		most = max(most, inFlight)
		mu.Unlock()
		company <- struct{}{}
		select {
		case <-time.After(300 * time.Millisecond): // room for a second child to barge in (it must not)
		case <-r.ctx.Done():
		}
		mu.Lock()
		inFlight--
		mu.Unlock()
		return turn{text: "done " + r.First}
	})
	r := newSubRig(t, t.TempDir(), m, &Subagents{MaxParallel: 1}, nil)
	if err := r.agent.Send(context.Background(), "USER: two"); err != nil {
		t.Fatal(err)
	}
	if most != 1 || len(company) != 2 {
		t.Errorf("%d children's requests were in flight at once (of %d), want 1", most, len(company))
	}
}
