package builtin

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
)

// TestWebSearchTool: the input is checked, the search gets it, and a
// model without a search tool is said so.
func TestWebSearchTool(t *testing.T) {
	var gotQuery string
	var gotAllowed []string
	ok := func(_ context.Context, q string, allowed, _ []string) (string, bool, string, error) {
		gotQuery, gotAllowed = q, allowed
		return "results", true, "", nil
	}
	none := func(context.Context, string, []string, []string) (string, bool, string, error) {
		return "", false, "openai/gpt-x: no search", nil
	}
	tests := []struct {
		name   string
		search Searcher
		input  string
		isErr  bool
		want   string
	}{
		{"searched", ok, `{"query":"go release","allowed_domains":["go.dev"]}`, false, "results"},
		{"not available", none, `{"query":"go release"}`, true, "WebSearch is not available with this model (openai/gpt-x: no search)"},
		{"empty query", ok, `{"query":" "}`, true, "query is empty"},
		{"both lists", ok, `{"query":"go","allowed_domains":["a"],"blocked_domains":["b"]}`, true, "not both"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, err := WebSearchTool(tc.search).Run(context.Background(), json.RawMessage(tc.input))
			if err != nil || res.IsError != tc.isErr || !strings.Contains(res.Output, tc.want) {
				t.Errorf("got %+v, %v; want error=%v containing %q", res, err, tc.isErr, tc.want)
			}
		})
	}
	if gotQuery != "go release" || len(gotAllowed) != 1 || gotAllowed[0] != "go.dev" {
		t.Errorf("search got %q %v", gotQuery, gotAllowed)
	}
}
