package app

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

	"github.com/synaps-cli/synaps/internal/llm"
)

// openAIServer is a loopback chat-completions endpoint that records each
// request body and streams a one-word answer.
func openAIServer(t *testing.T) (*httptest.Server, func() [][]byte) {
	var mu sync.Mutex
	var bodies [][]byte
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		bodies = append(bodies, b)
		mu.Unlock()
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, "data: {\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"ok\"}}]}\n\n")
		fmt.Fprint(w, "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n")
		fmt.Fprint(w, "data: [DONE]\n\n")
	}))
	t.Cleanup(srv.Close)
	return srv, func() [][]byte { mu.Lock(); defer mu.Unlock(); return bodies }
}

// TestEffortReachesTheRequest: each level reaches the model in the form
// it takes — an Anthropic thinking budget with room for the answer above
// it, an OpenAI reasoning_effort — and a model that takes neither gets
// none, with a note that says so.
func TestEffortReachesTheRequest(t *testing.T) {
	ant := newModelServer(t)
	oai, oaiBodies := openAIServer(t)
	env := map[string]string{"ANTHROPIC_API_KEY": "test-key", "ANTHROPIC_BASE_URL": ant.URL, "OPENAI_API_KEY": "k", "OPENAI_BASE_URL": oai.URL + "/v1"}
	for _, tc := range []struct {
		model  string
		effort llm.Effort
		want   string // a fragment of the request body; "" checks absence
		absent []string
		note   string
	}{
		{"anthropic/claude-sonnet-4-5", llm.EffortLow, `"thinking":{"type":"enabled","budget_tokens":2048}`, nil, ""},
		{"anthropic/claude-sonnet-4-5", llm.EffortHigh, `"thinking":{"type":"enabled","budget_tokens":16384}`, nil, ""},
		{"anthropic/claude-opus-4-1", llm.EffortMax, `"thinking":{"type":"enabled","budget_tokens":32000}`, nil, ""},
		{"anthropic/claude-opus-4-8", llm.EffortMedium, `"thinking":{"type":"adaptive"},"output_config":{"effort":"medium"}`, []string{"budget_tokens"}, ""},
		{"anthropic/claude-sonnet-4-6", llm.EffortMax, `"output_config":{"effort":"max"}`, nil, ""},
		{"anthropic/claude-opus-4-8", llm.EffortOff, "", []string{`"thinking"`, "output_config"}, ""},
		{"anthropic/claude-sonnet-4-5", llm.EffortOff, "", []string{`"thinking"`}, ""},
		{"anthropic/claude-sonnet-4-5", "", "", []string{`"thinking"`}, ""},
		{"anthropic/claude-3-5-haiku", llm.EffortHigh, "", []string{`"thinking"`}, "anthropic/claude-3-5-haiku takes no thinking level; effort high is not sent to it"},
		{"openai/o3", llm.EffortMedium, `"reasoning_effort":"medium"`, nil, ""},
		{"openai/gpt-5", llm.EffortMax, `"reasoning_effort":"high"`, nil, ""},
		{"openai/gpt-4o", llm.EffortHigh, "", []string{"reasoning_effort"}, "openai/gpt-4o takes no thinking level; effort high is not sent to it"},
	} {
		t.Run(fmt.Sprintf("%s/%s", tc.model, tc.effort), func(t *testing.T) {
			a, err := Open(context.Background(), Options{BaseDir: t.TempDir(), WorkDir: t.TempDir(), Model: tc.model, Effort: tc.effort,
				Getenv: func(k string) string { return env[k] }, NoExtensions: true, Version: "test"})
			if err != nil {
				t.Fatal(err)
			}
			defer a.Close(context.Background())
			if err := a.Send(context.Background(), "think"); err != nil {
				t.Fatal(err)
			}
			var body []byte
			if strings.HasPrefix(tc.model, "openai/") {
				bs := oaiBodies()
				body = bs[len(bs)-1]
			} else {
				ant.mu.Lock()
				body = ant.bodies[len(ant.bodies)-1]
				ant.mu.Unlock()
			}
			if tc.want != "" && !strings.Contains(string(body), tc.want) {
				t.Errorf("body lacks %s: %.300s", tc.want, body)
			}
			for _, a := range tc.absent {
				if strings.Contains(string(body), a) {
					t.Errorf("body has %s: %.300s", a, body)
				}
			}
			if strings.Contains(tc.want, "budget_tokens") {
				var req struct {
					MaxTokens int `json:"max_tokens"`
					Thinking  struct {
						BudgetTokens int `json:"budget_tokens"`
					}
				}
				json.Unmarshal(body, &req)
				if req.MaxTokens <= req.Thinking.BudgetTokens {
					t.Errorf("max_tokens %d is not above the thinking budget %d", req.MaxTokens, req.Thinking.BudgetTokens)
				}
			}
			if got := strings.Join(a.Notes, "\n"); tc.note != "" && !strings.Contains(got, tc.note) {
				t.Errorf("notes %q lack %q", got, tc.note)
			}
		})
	}
}

func TestParseEffortAndSlash(t *testing.T) {
	for in, want := range map[string]llm.Effort{"": "", "HIGH": llm.EffortHigh, " low ": llm.EffortLow, "maximum": llm.EffortMax, "off": llm.EffortOff} {
		if got, err := llm.ParseEffort(in); err != nil || got != want {
			t.Errorf("ParseEffort(%q) = %q, %v", in, got, err)
		}
	}
	if _, err := llm.ParseEffort("extreme"); err == nil || err.Error() != `unknown effort "extreme"; use off, low, medium, high or max` {
		t.Errorf("bad level: %v", err)
	}
	a, err := Open(context.Background(), Options{BaseDir: t.TempDir(), WorkDir: t.TempDir(), Model: "script:x", Getenv: func(string) string { return "" }, NoExtensions: true, NoModelOK: true})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close(context.Background())
	res, err := a.Slash(context.Background(), "/effort medium")
	if err != nil || res.Output != "effort: medium" || a.Effort() != llm.EffortMedium {
		t.Errorf("/effort medium: %q %v", res.Output, err)
	}
	if _, err := a.Slash(context.Background(), "/effort lots"); err == nil || !strings.Contains(err.Error(), "/effort lots: unknown effort") {
		t.Errorf("/effort lots: %v", err)
	}
}

// TestDocumentsAndImagesReachTheRequest: a PDF goes to the model as a
// document block (Anthropic) or a file part (OpenAI-compatible), a
// picture as an image.
func TestDocumentsAndImagesReachTheRequest(t *testing.T) {
	ant := newModelServer(t)
	oai, oaiBodies := openAIServer(t)
	env := map[string]string{"ANTHROPIC_API_KEY": "test-key", "ANTHROPIC_BASE_URL": ant.URL, "OPENAI_API_KEY": "k", "OPENAI_BASE_URL": oai.URL + "/v1"}
	pdf := llm.Image{MediaType: "application/pdf", Data: "JVBERi0xLjQK"}
	png := llm.Image{MediaType: "image/png", Data: "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAAAAABX3VL4AAAAC0lEQVR4nGNgAAEAAAYAAf6MZ8gAAAAASUVORK5CYII="}
	for _, tc := range []struct {
		model string
		want  []string
	}{
		{"anthropic/claude-sonnet-4-5", []string{`{"type":"document","source":{"type":"base64","media_type":"application/pdf","data":"JVBERi0xLjQK"}}`, `{"type":"image","source":{"type":"base64","media_type":"image/png","data":"iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAAAAABX3VL4AAAAC0lEQVR4nGNgAAEAAAYAAf6MZ8gAAAAASUVORK5CYII="}`}},
		{"openai/gpt-4o", []string{`{"type":"file","file":{"filename":"document-1.pdf","file_data":"data:application/pdf;base64,JVBERi0xLjQK"}}`, `{"type":"image_url","image_url":{"url":"data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAAAAABX3VL4AAAAC0lEQVR4nGNgAAEAAAYAAf6MZ8gAAAAASUVORK5CYII="}}`}},
	} {
		a, err := Open(context.Background(), Options{BaseDir: t.TempDir(), WorkDir: t.TempDir(), Model: tc.model,
			Getenv: func(k string) string { return env[k] }, NoExtensions: true, Version: "test"})
		if err != nil {
			t.Fatal(err)
		}
		if err := a.Send(context.Background(), "summarise these", pdf, png); err != nil {
			t.Fatal(err)
		}
		a.Close(context.Background())
		var body []byte
		if strings.HasPrefix(tc.model, "openai/") {
			bs := oaiBodies()
			body = bs[len(bs)-1]
		} else {
			ant.mu.Lock()
			body = ant.bodies[len(ant.bodies)-1]
			ant.mu.Unlock()
		}
		for _, w := range tc.want {
			if !strings.Contains(string(body), w) {
				t.Errorf("%s: body lacks %s:\n%s", tc.model, w, body[strings.Index(string(body), `"messages"`):])
			}
		}
	}
	if !llm.TakesDocuments("anthropic/claude-opus-4-1") || llm.TakesDocuments("openai/gpt-3.5-turbo") || llm.TakesDocuments("script:x") {
		t.Error("TakesDocuments")
	}
}
