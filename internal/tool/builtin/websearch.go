package builtin

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/synaps-cli/synaps/internal/tool"
)

// WebSearchToolName is the web_search tool's synaps name; Claude's is
// WebSearch, with the same input.
const WebSearchToolName = "web_search"

// Searcher runs a web search with the model's own server-side search
// tool (Anthropic's web_search_20250305). ok false: the session's model
// has none, and why names the model.
type Searcher func(ctx context.Context, query string, allowed, blocked []string) (result string, ok bool, why string, err error)

// WebSearchTool is the web_search tool, searching with search (asked
// per call, so a model switch is followed).
func WebSearchTool(search Searcher) tool.Tool { return &webSearchTool{search} }

type webSearchTool struct{ search Searcher }

func (t *webSearchTool) Spec() tool.Spec {
	return tool.Spec{
		Name:        WebSearchToolName,
		RuntimeName: WebSearchToolName,
		Description: "Search the web and get the links found with a summary of them. allowed_domains keeps only results from those sites; blocked_domains leaves those out. Works with models whose API has a server-side search tool (Anthropic's); otherwise it says it is not available.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"query":{"type":"string","minLength":2,"description":"The search query"},"allowed_domains":{"type":"array","items":{"type":"string"},"description":"Only include results from these domains"},"blocked_domains":{"type":"array","items":{"type":"string"},"description":"Never include results from these domains"}},"required":["query"]}`),
		Source:      Source,
	}
}

func (t *webSearchTool) Run(ctx context.Context, input json.RawMessage) (tool.Result, error) {
	var in struct {
		Query   string   `json:"query"`
		Allowed []string `json:"allowed_domains"`
		Blocked []string `json:"blocked_domains"`
	}
	if err := decode(input, &in); err != nil {
		return fail("web_search: %v", err), nil
	}
	if len(strings.TrimSpace(in.Query)) < 2 {
		return fail("web_search: query is empty: say what to search for"), nil
	}
	if len(in.Allowed) > 0 && len(in.Blocked) > 0 {
		return fail("web_search: give allowed_domains or blocked_domains, not both"), nil
	}
	if t.search == nil {
		return fail("WebSearch is not available with this model (no model is set)"), nil
	}
	out, ok, why, err := t.search(ctx, in.Query, in.Allowed, in.Blocked)
	switch {
	case !ok:
		return fail("WebSearch is not available with this model (%s)", why), nil
	case err != nil:
		if ctx.Err() != nil {
			return tool.Result{}, ctx.Err()
		}
		return fail("web_search: %v", err), nil
	}
	return tool.Result{Output: out}, nil
}
