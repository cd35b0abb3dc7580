package app

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOpenAIWebSearch: with an OpenAI model the web_search tool asks a
// search model with web_search_options, against a fake OpenAI server: the
// session's model when it is a search model, or config
// openai_search_model; an OpenAI-compatible server with neither says
// WebSearch is not available and names the config key.
func TestOpenAIWebSearch(t *testing.T) {
	var asked []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body struct {
			Model   string          `json:"model"`
			Options json.RawMessage `json:"web_search_options"`
		}
		data, _ := io.ReadAll(r.Body)
		json.Unmarshal(data, &body)
		if body.Options == nil {
			http.Error(w, `{"error":{"message":"no web_search_options"}}`, http.StatusBadRequest)
			return
		}
		asked = append(asked, body.Model)
		io.WriteString(w, `{"choices":[{"message":{"content":"Found it.","annotations":[{"type":"url_citation","url_citation":{"url":"https://go.dev/","title":"Go"}}]}}]}`)
	}))
	defer srv.Close()
	env := map[string]string{"OPENAI_BASE_URL": srv.URL + "/v1", "OPENAI_API_KEY": "k"}
	open := func(model, config string) *App {
		base := t.TempDir()
		os.WriteFile(filepath.Join(base, "config"), []byte(config), 0o600)
		a, err := Open(context.Background(), Options{BaseDir: base, WorkDir: t.TempDir(), Model: model,
			Getenv: func(k string) string { return env[k] }, NoExtensions: true, NoMCP: true, Version: "test"})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { a.Close(context.Background()) })
		return a
	}

	out, ok, why, err := open("openai/gpt-4o-mini-search-preview", "").webSearch(context.Background(), "go", nil, nil)
	if !ok || err != nil || !strings.Contains(out, "- [Go](https://go.dev/)") || !strings.Contains(out, "Found it.") {
		t.Errorf("search model: %q %v %q %v", out, ok, why, err)
	}
	_, ok, _, err = open("openai/gpt-4o", "openai_search_model = my-search\n").webSearch(context.Background(), "go", nil, nil)
	if !ok || err != nil {
		t.Errorf("configured search model: %v %v", ok, err)
	}
	if strings.Join(asked, ",") != "gpt-4o-mini-search-preview,my-search" {
		t.Errorf("models asked: %v", asked)
	}
	_, ok, why, _ = open("openai/llama3.2", "").webSearch(context.Background(), "go", nil, nil)
	if ok || !strings.Contains(why, "set openai_search_model in the config") {
		t.Errorf("compatible endpoint without a search model: ok %v, why %q", ok, why)
	}
}
