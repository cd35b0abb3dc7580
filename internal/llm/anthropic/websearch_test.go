package anthropic

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestWebSearchRequest: WebSearch sends Anthropic's server-side search
// tool with the domains asked for, and reads the links and the text of
// the answer.
func TestWebSearchRequest(t *testing.T) {
	var got map[string]any
	var key string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		json.Unmarshal(body, &got)
		key = r.Header.Get("X-Api-Key")
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"content":[
			{"type":"server_tool_use","id":"srvtoolu_1","name":"web_search","input":{"query":"go 1.26 release"}},
			{"type":"web_search_tool_result","tool_use_id":"srvtoolu_1","content":[{"type":"web_search_result","title":"Go 1.26 Release Notes","url":"https://go.dev/doc/go1.26","encrypted_content":"x"}]},
			{"type":"text","text":"Go 1.26 was released in February."}]}`)
	}))
	defer srv.Close()
	c := New(Config{APIKey: "k", BaseURL: srv.URL})
	out, err := c.WebSearch(context.Background(), "claude-q", "go 1.26 release", []string{"go.dev"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := "Web search results for query: \"go 1.26 release\"\n\nLinks:\n- [Go 1.26 Release Notes](https://go.dev/doc/go1.26)\n\nGo 1.26 was released in February.\n"
	if diff := cmp.Diff(want, out); diff != "" {
		t.Errorf("result (-want +got):\n%s", diff)
	}
	wantTools := []any{map[string]any{"type": WebSearchTool, "name": "web_search", "max_uses": float64(5), "allowed_domains": []any{"go.dev"}}}
	if diff := cmp.Diff(wantTools, got["tools"]); diff != "" {
		t.Errorf("tools sent (-want +got):\n%s", diff)
	}
	if got["model"] != "claude-q" || key != "k" {
		t.Errorf("model %v, key %q", got["model"], key)
	}
}

// TestWebSearchAPIError: an API error is said with its type and message.
func TestWebSearchAPIError(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusBadRequest)
		io.WriteString(w, `{"type":"error","error":{"type":"invalid_request_error","message":"web search is not enabled for this organization"}}`)
	}))
	defer srv.Close()
	_, err := New(Config{BaseURL: srv.URL}).WebSearch(context.Background(), "m", "q", nil, nil)
	if err == nil || err.Error() != "anthropic API error 400 invalid_request_error: web search is not enabled for this organization" {
		t.Errorf("err = %v", err)
	}
}
