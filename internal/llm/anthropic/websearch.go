package anthropic

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/synaps-cli/synaps/internal/llm/internal/transport"
)

// WebSearchTool is the type of Anthropic's server-side web search tool:
// the API runs the searches and answers with their results.
const WebSearchTool = "web_search_20250305"

// webSearchMaxUses bounds the searches one WebSearch request may run.
const webSearchMaxUses = 5

// WebSearch asks model, with Anthropic's server-side web search tool
// offered, to search the web for query (the way Claude Code's WebSearch
// does: a request of its own), and returns the links found and the
// model's summary of them. allowed and blocked are the tool's
// allowed_domains and blocked_domains (at most one of them is set).
func (c *Client) WebSearch(ctx context.Context, model, query string, allowed, blocked []string) (string, error) {
	type searchTool struct {
		Type           string   `json:"type"`
		Name           string   `json:"name"`
		MaxUses        int      `json:"max_uses"`
		AllowedDomains []string `json:"allowed_domains,omitempty"`
		BlockedDomains []string `json:"blocked_domains,omitempty"`
	}
	body, err := json.Marshal(map[string]any{
		"model":      model,
		"max_tokens": DefaultMaxTokens,
		"messages":   []map[string]string{{"role": "user", "content": "Perform a web search for the query: " + query}},
		"tools":      []searchTool{{Type: WebSearchTool, Name: "web_search", MaxUses: webSearchMaxUses, AllowedDomains: allowed, BlockedDomains: blocked}},
	})
	if err != nil {
		return "", err
	}
	data, err := transport.PostJSON(ctx, c.request([][]byte{body}))
	if err != nil {
		return "", err
	}
	var r struct {
		Content []struct {
			Type    string          `json:"type"`
			Text    string          `json:"text"`
			Content json.RawMessage `json:"content"`
		} `json:"content"`
	}
	if err := json.Unmarshal(data, &r); err != nil {
		return "", fmt.Errorf("anthropic API: the web search answer is not JSON: %v", err)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Web search results for query: %q\n\n", query)
	for _, blk := range r.Content {
		switch blk.Type {
		case "web_search_tool_result":
			var results []struct {
				Type      string `json:"type"`
				Title     string `json:"title"`
				URL       string `json:"url"`
				ErrorCode string `json:"error_code"`
			}
			if json.Unmarshal(blk.Content, &results) != nil {
				// An error is an object, not a list.
				var e struct {
					ErrorCode string `json:"error_code"`
				}
				_ = json.Unmarshal(blk.Content, &e)
				fmt.Fprintf(&b, "The search failed: %s\n\n", e.ErrorCode)
				continue
			}
			b.WriteString("Links:\n")
			for _, res := range results {
				fmt.Fprintf(&b, "- [%s](%s)\n", res.Title, res.URL)
			}
			b.WriteString("\n")
		case "text":
			b.WriteString(blk.Text)
		}
	}
	return strings.TrimSpace(b.String()) + "\n", nil
}
