package openai

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/synaps-cli/synaps/internal/llm"
)

// TestWebSearchRequest: against a fake OpenAI server, WebSearch asks the
// search model with web_search_options (chat completions, not streamed),
// sends the key, and reads the answer with its url_citation links,
// filtered by the domains asked for.
func TestWebSearchRequest(t *testing.T) {
	// mu orders the handler's writes after the test's reads of the first
	// request: the race detector sees no order through the socket when
	// the request went out in one writev (the transport's gathered write).
	var mu sync.Mutex
	var got map[string]any
	var auth, path string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		got = nil
		json.Unmarshal(body, &got)
		auth, path = r.Header.Get("Authorization"), r.URL.Path
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"id":"c1","object":"chat.completion","choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant",
			"content":"Go 1.26 was released in February.",
			"annotations":[
				{"type":"url_citation","url_citation":{"start_index":0,"end_index":5,"url":"https://go.dev/doc/go1.26","title":"Go 1.26 Release Notes"}},
				{"type":"url_citation","url_citation":{"url":"https://go.dev/doc/go1.26","title":"Go 1.26 Release Notes"}},
				{"type":"url_citation","url_citation":{"url":"https://blog.example.com/go","title":"A blog"}}]}}]}`)
	}))
	defer srv.Close()
	c := New(Config{APIKey: "k", BaseURL: srv.URL + "/v1"})
	out, err := c.WebSearch(context.Background(), "gpt-4o-search-preview", "go 1.26 release", []string{"go.dev"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := "Web search results for query: \"go 1.26 release\"\n\nLinks:\n- [Go 1.26 Release Notes](https://go.dev/doc/go1.26)\n\nGo 1.26 was released in February.\n"
	if d := cmp.Diff(want, out); d != "" {
		t.Errorf("result (-want +got):\n%s", d)
	}
	mu.Lock()
	if path != "/v1/chat/completions" || auth != "Bearer k" {
		t.Errorf("request to %s with Authorization %q", path, auth)
	}
	if got["model"] != "gpt-4o-search-preview" || got["stream"] != nil {
		t.Errorf("model %v, stream %v", got["model"], got["stream"])
	}
	if d := cmp.Diff(map[string]any{}, got["web_search_options"]); d != "" {
		t.Errorf("web_search_options (-want +got):\n%s", d)
	}
	msgs, _ := got["messages"].([]any)
	if len(msgs) != 1 || !strings.Contains(msgs[0].(map[string]any)["content"].(string), "Only use results from these sites: go.dev") {
		t.Errorf("messages %v", msgs)
	}
	mu.Unlock()

	// Blocked domains leave their links out.
	out, _ = c.WebSearch(context.Background(), "m", "q", nil, []string{"example.com"})
	if strings.Contains(out, "blog.example.com") || !strings.Contains(out, "go.dev") {
		t.Errorf("blocked example.com: %s", out)
	}
}

// TestWebSearchError: an API error names the status, the model and the
// API's message (a model without search says so there), and is the
// *llm.APIError the transport parsed.
func TestWebSearchError(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusBadRequest)
		io.WriteString(w, `{"error":{"type":"invalid_request_error","message":"web_search_options is not supported with this model."}}`)
	}))
	defer srv.Close()
	_, err := New(Config{BaseURL: srv.URL}).WebSearch(context.Background(), "gpt-4o", "q", nil, nil)
	if err == nil || !strings.Contains(err.Error(), "web search with model gpt-4o (web_search_options): openai API error 400 invalid_request_error: web_search_options is not supported with this model.") {
		t.Errorf("error %v", err)
	}
	if apiErr, ok := errors.AsType[*llm.APIError](err); !ok || apiErr.Status != http.StatusBadRequest {
		t.Errorf("error %v is not an *llm.APIError with status 400", err)
	}
}
