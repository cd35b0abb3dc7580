package app

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/synaps-cli/synaps/internal/llm"
	"github.com/synaps-cli/synaps/internal/session"
)

// modelServer is a loopback Anthropic Messages endpoint that records the
// model of every request and answers each with a short streamed text
// whose usage includes cache reads and writes.
type modelServer struct {
	*httptest.Server
	mu     sync.Mutex
	models []string
	bodies [][]byte
}

func newModelServer(t *testing.T) *modelServer {
	s := &modelServer{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet && r.URL.Path == "/v1/models" {
			if r.Header.Get("X-Api-Key") != "test-key" {
				http.Error(w, "no key", http.StatusUnauthorized)
				return
			}
			fmt.Fprint(w, `{"data":[{"id":"claude-first","type":"model"},{"id":"claude-second","type":"model"}],"has_more":false}`)
			return
		}
		body, _ := io.ReadAll(r.Body)
		var req struct{ Model string }
		json.Unmarshal(body, &req)
		s.mu.Lock()
		s.models = append(s.models, req.Model)
		s.bodies = append(s.bodies, body)
		s.mu.Unlock()
		w.Header().Set("Content-Type", "text/event-stream")
		ev := func(name, data string) { fmt.Fprintf(w, "event: %s\ndata: %s\n\n", name, data) }
		ev("message_start", `{"type":"message_start","message":{"id":"m","type":"message","role":"assistant","content":[],"model":"`+req.Model+`","usage":{"input_tokens":10,"cache_read_input_tokens":100,"cache_creation_input_tokens":5,"output_tokens":1}}}`)
		ev("content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`)
		ev("content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"answer from `+req.Model+`"}}`)
		ev("content_block_stop", `{"type":"content_block_stop","index":0}`)
		ev("message_delta", `{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":7}}`)
		ev("message_stop", `{"type":"message_stop"}`)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *modelServer) seen() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.models...)
}

// /model lists what is configured and switches for the rest of the
// session: the next request, at the server, asks for the new model, and
// the session — its messages, usage and id — goes on (issue 23, item 4).
func TestSlashModelSwitchesTheNextRequest(t *testing.T) {
	srv := newModelServer(t)
	env := map[string]string{"ANTHROPIC_API_KEY": "test-key", "ANTHROPIC_BASE_URL": srv.URL}
	base, work := t.TempDir(), t.TempDir()
	// Prices from config: each request is counted at its own model's.
	os.WriteFile(filepath.Join(base, "config"), []byte("price.claude-first = input=1 output=2 cache_read=0.1 cache_write=1.25\n"+
		"price.anthropic/claude-second = input=3, output=15, cache_read=0.3, cache_write=3.75\n"), 0o600)
	a, err := Open(context.Background(), Options{BaseDir: base, WorkDir: work, Model: "anthropic/claude-first",
		Getenv: func(k string) string { return env[k] }, NoExtensions: true, Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close(context.Background())
	ctx := context.Background()

	list, err := a.Slash(ctx, "/model")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"model: anthropic/claude-first",
		"* anthropic/claude-first   Anthropic at " + srv.URL,
		"  anthropic/claude-second  Anthropic at " + srv.URL,
	} {
		if !strings.Contains(list.Output, want) {
			t.Errorf("/model output lacks %q:\n%s", want, list.Output)
		}
	}
	if strings.Contains(list.Output, "openai/") && !strings.Contains(list.Output, "openai/<model>") {
		t.Errorf("/model offers OpenAI models with no OpenAI key or URL set:\n%s", list.Output)
	}

	if err := a.Agent.Send(ctx, "first"); err != nil {
		t.Fatal(err)
	}
	sw, err := a.Slash(ctx, "/model anthropic/claude-second")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(sw.Output, "model: anthropic/claude-second (was anthropic/claude-first)") {
		t.Errorf("/model NAME said %q", sw.Output)
	}
	id := a.Session.ID
	if err := a.Agent.Send(ctx, "second"); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]string{"claude-first", "claude-second"}, srv.seen()); d != "" {
		t.Errorf("models asked for at the server (-want +got):\n%s", d)
	}
	if a.Session.ID != id || len(a.Session.Messages()) != 4 {
		t.Errorf("the switch started over: session %s (was %s), %d messages", a.Session.ID, id, len(a.Session.Messages()))
	}

	cost, err := a.Slash(ctx, "/cost")
	if err != nil {
		t.Fatal(err)
	}
	// Two requests of 10 + 100 cache reads + 5 cache writes in, 7 out:
	// (10×1 + 7×2 + 100×0.1 + 5×1.25) + (10×3 + 7×15 + 100×0.3 + 5×3.75)
	// millionths of a dollar.
	for _, want := range []string{"requests: 2", "input tokens: 230 (cache: 200 read, 10 written)", "output tokens: 14",
		"cost: $0.000224\n", "last request: 115 in (cache: 100 read, 5 written) / 7 out · $0.000184",
		"price of anthropic/claude-second, US dollars per million tokens: input 3, output 15, cache read 0.3, cache write 3.75"} {
		if !strings.Contains(cost.Output, want) {
			t.Errorf("/cost lacks %q:\n%s", want, cost.Output)
		}
	}

	// A name synaps cannot use is refused, saying which, and the model stays.
	if _, err := a.Slash(ctx, "/model nonsense"); err == nil || !strings.Contains(err.Error(), "the model stays anthropic/claude-second") {
		t.Errorf("/model nonsense: %v", err)
	}
}

// Without a model (the terminal UI opens anyway), /model says so and
// still lists what can be chosen, /cost says there is nothing yet, and
// /model NAME chooses the first model.
func TestSlashModelWithoutAModel(t *testing.T) {
	base, work := t.TempDir(), t.TempDir()
	write(t, filepath.Join(work, "turns.jsonl"), `{"text":"hi"}`+"\n")
	a, err := Open(context.Background(), Options{BaseDir: base, WorkDir: work, Getenv: noEnv, NoExtensions: true, NoModelOK: true, Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close(context.Background())
	ctx := context.Background()
	list, err := a.Slash(ctx, "/model")
	if err != nil || !strings.Contains(list.Output, "model: none yet — no model configured") || !strings.Contains(list.Output, "script:FILE works too") {
		t.Errorf("/model without a model: %v\n%s", err, list.Output)
	}
	if cost, err := a.Slash(ctx, "/cost"); err != nil || !strings.Contains(cost.Output, "no model yet") {
		t.Errorf("/cost without a model: %v %q", err, cost.Output)
	}
	sw, err := a.Slash(ctx, "/model script:turns.jsonl")
	if err != nil || sw.Output != "model: script:turns.jsonl; the next request uses it" {
		t.Fatalf("/model NAME: %v %q", err, sw.Output)
	}
	if err := a.Agent.Send(ctx, "hello"); err != nil {
		t.Fatal(err)
	}
}

// /model asks each configured provider for its models: an
// OpenAI-compatible server (Ollama, llama.cpp) lists what it has loaded;
// a provider that cannot list them gets its well-known models and a note
// saying why.
func TestSlashModelListsWhatTheServersServe(t *testing.T) {
	openai := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/models" {
			http.NotFound(w, r)
			return
		}
		fmt.Fprint(w, `{"object":"list","data":[{"id":"llama3.2","object":"model"},{"id":"qwen2.5-coder","object":"model"}]}`)
	}))
	defer openai.Close()
	anthropic := httptest.NewServer(http.NotFoundHandler())
	defer anthropic.Close()
	env := map[string]string{"OPENAI_BASE_URL": openai.URL + "/v1", "ANTHROPIC_API_KEY": "k", "ANTHROPIC_BASE_URL": anthropic.URL}
	a, err := Open(context.Background(), Options{BaseDir: t.TempDir(), WorkDir: t.TempDir(), Model: "openai/llama3.2",
		Getenv: func(k string) string { return env[k] }, NoExtensions: true, Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close(context.Background())
	res, err := a.Slash(context.Background(), "/model")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"* openai/llama3.2",
		"openai/qwen2.5-coder",
		"OpenAI-compatible at " + openai.URL + "/v1",
		"anthropic/claude-sonnet-4-5",
		"(Anthropic at " + anthropic.URL + ": listing models at " + anthropic.URL + "/v1/models?limit=100: HTTP 404; showing well-known models instead)",
	} {
		if !strings.Contains(res.Output, want) {
			t.Errorf("/model lacks %q:\n%s", want, res.Output)
		}
	}
	if strings.Contains(res.Output, "openai/gpt-4o") {
		t.Errorf("/model offers OpenAI's own models for a server that listed its own:\n%s", res.Output)
	}
}

// Tokens are saved with the answers that used them: a resumed session
// shows, in /cost and the status line (Agent.Usage), what its earlier run
// used, and counts on from there (issue 23, item 3).
func TestResumeKeepsUsage(t *testing.T) {
	srv := newModelServer(t)
	env := map[string]string{"ANTHROPIC_API_KEY": "test-key", "ANTHROPIC_BASE_URL": srv.URL}
	base, work := t.TempDir(), t.TempDir()
	open := func(resume string) *App {
		a, err := Open(context.Background(), Options{BaseDir: base, WorkDir: work, Model: "anthropic/claude-first", Resume: resume,
			Getenv: func(k string) string { return env[k] }, NoExtensions: true, Version: "test"})
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	ctx := context.Background()
	a := open("")
	if err := a.Agent.Send(ctx, "first"); err != nil {
		t.Fatal(err)
	}
	id, first := a.Session.ID, a.Agent.Usage()
	if first.InputTokens == 0 {
		t.Fatalf("the first run used no tokens: %+v", first)
	}
	a.Close(ctx)

	b := open(id)
	defer b.Close(ctx)
	if d := cmp.Diff(first, b.Agent.Usage()); d != "" {
		t.Errorf("usage after resume (-first run +resumed):\n%s", d)
	}
	if err := b.Agent.Send(ctx, "second"); err != nil {
		t.Fatal(err)
	}
	if got := b.Agent.Usage(); got.InputTokens != 2*first.InputTokens || got.OutputTokens != 2*first.OutputTokens {
		t.Errorf("usage after one more request = %+v, want twice %+v", got, first)
	}
	cost, err := b.Slash(ctx, "/cost")
	if err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf("input tokens: %d", 2*first.InputTokens); !strings.Contains(cost.Output, want) || !strings.Contains(cost.Output, "requests: 1 (this run)") {
		t.Errorf("/cost after resume lacks %q or this run's one request:\n%s", want, cost.Output)
	}
}

// /resume ID goes on with the model the session recorded, as a launch
// with --resume does, unless this run was given --model; either way the
// session then records the model it runs on, so the next resume takes it.
func TestSlashResumeTakesUpTheRecordedModel(t *testing.T) {
	base, work := t.TempDir(), t.TempDir()
	write(t, filepath.Join(work, "one.jsonl"), `{"text":"from ONE"}`+"\n"+`{"text":"from ONE again"}`+"\n")
	write(t, filepath.Join(work, "two.jsonl"), `{"text":"from TWO"}`+"\n")
	ctx := context.Background()
	open := func(model string) *App {
		t.Helper()
		a, err := Open(ctx, Options{BaseDir: base, WorkDir: work, Model: model, Getenv: noEnv, NoExtensions: true, Version: "test"})
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	a := open("script:one.jsonl")
	if err := a.Agent.Send(ctx, "first"); err != nil {
		t.Fatal(err)
	}
	id := a.Session.ID
	a.Close(ctx)

	// The config's default model, no --model: /resume takes up ONE.
	write(t, filepath.Join(base, "config"), "model = script:two.jsonl\n")
	b := open("")
	if _, err := b.Slash(ctx, "/resume "+id); err != nil {
		t.Fatal(err)
	}
	if err := b.Agent.Send(ctx, "second"); err != nil {
		t.Fatal(err)
	}
	// The recorded script goes on after the line the session used
	// (scriptresume.go), not from its first line again.
	if got := lastText(t, b); got != "from ONE again" {
		t.Errorf("after /resume without --model the answer is %q, want the recorded model's next line", got)
	}
	b.Close(ctx)

	// --model two: /resume keeps TWO and the session records it.
	c := open("script:two.jsonl")
	if _, err := c.Slash(ctx, "/resume "+id); err != nil {
		t.Fatal(err)
	}
	if err := c.Agent.Send(ctx, "third"); err != nil {
		t.Fatal(err)
	}
	if got := lastText(t, c); got != "from TWO" {
		t.Errorf("after /resume with --model two the answer is %q", got)
	}
	if got := c.Session.Model(); got != "script:two.jsonl" {
		t.Errorf("the session records %q, want script:two.jsonl", got)
	}
	c.Close(ctx)
}

// lastText is the text of the session's last assistant message.
func lastText(t *testing.T, a *App) string {
	t.Helper()
	msgs := a.Session.Messages()
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role == llm.RoleAssistant {
			return msgs[i].Text()
		}
	}
	t.Fatal("no assistant message")
	return ""
}

// --continue with no session of this directory names the newest session
// elsewhere and how to resume it; one that recorded no directory (an
// older file) is named without a directory.
func TestContinueWithNothingHere(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name, cwd, want string
	}{
		{"started elsewhere", t.TempDir(), "was started in "},
		{"no directory recorded", "", "; the newest session is "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			base, here := t.TempDir(), t.TempDir()
			s, err := session.Create(base, "script:x.jsonl", tc.cwd)
			if err != nil {
				t.Fatal(err)
			}
			s.Append(llm.Message{Role: llm.RoleUser, Content: []llm.Block{{Type: llm.BlockText, Text: "hi"}}})
			s.Close()
			_, err = Open(ctx, Options{BaseDir: base, WorkDir: here, Continue: true, Getenv: noEnv, NoExtensions: true, NoModelOK: true, Version: "test"})
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "--resume "+s.ID) || strings.Contains(err.Error(), "started in :") {
				t.Errorf("--continue: %v; want it to say %q and --resume %s", err, tc.want, s.ID)
			}
		})
	}
}
