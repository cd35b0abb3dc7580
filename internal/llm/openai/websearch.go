package openai

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strings"

	"github.com/synaps-cli/synaps/internal/llm/internal/transport"
)

// DefaultSearchModel is the model WebSearch asks on api.openai.com when
// the session's model is not a search model: chat completions search
// only with the search models.
const DefaultSearchModel = "gpt-4o-search-preview"

// IsOpenAI reports whether the client talks to OpenAI's own API (whose
// search models take web_search_options), not another compatible
// endpoint.
func (c *Client) IsOpenAI() bool {
	u, err := url.Parse(c.cfg.BaseURL)
	return err == nil && u.Hostname() == "api.openai.com"
}

// WebSearch asks model (a search model) to search the web for query
// with chat completions' web_search_options, in a request of its own,
// and returns its answer with the pages it cites. Chat completions take
// no domain filter: allowed and blocked (at most one set) are said in
// the prompt and the citations are filtered by them.
func (c *Client) WebSearch(ctx context.Context, model, query string, allowed, blocked []string) (string, error) {
	prompt := "Search the web for: " + query
	switch {
	case len(allowed) > 0:
		prompt += "\nOnly use results from these sites: " + strings.Join(allowed, ", ")
	case len(blocked) > 0:
		prompt += "\nDo not use results from these sites: " + strings.Join(blocked, ", ")
	}
	body, err := json.Marshal(map[string]any{
		"model":              model,
		"web_search_options": map[string]any{},
		"messages":           []map[string]string{{"role": "user", "content": prompt}},
	})
	if err != nil {
		return "", err
	}
	data, err := transport.PostJSON(ctx, c.request([][]byte{body}))
	if err != nil {
		return "", fmt.Errorf("web search with model %s (web_search_options): %w", model, err)
	}
	var r struct {
		Choices []struct {
			Message struct {
				Content     string `json:"content"`
				Annotations []struct {
					Type        string `json:"type"`
					URLCitation struct {
						URL   string `json:"url"`
						Title string `json:"title"`
					} `json:"url_citation"`
				} `json:"annotations"`
			} `json:"message"`
		} `json:"choices"`
	}
	if err := json.Unmarshal(data, &r); err != nil {
		return "", fmt.Errorf("openai API: the web search answer is not JSON: %v", err)
	}
	if len(r.Choices) == 0 {
		return "", fmt.Errorf("openai API: the web search answer has no choices")
	}
	msg := r.Choices[0].Message
	var b strings.Builder
	fmt.Fprintf(&b, "Web search results for query: %q\n\n", query)
	var seen []string
	for _, a := range msg.Annotations {
		u := a.URLCitation.URL
		if a.Type != "url_citation" || u == "" || slices.Contains(seen, u) || !domainAllowed(u, allowed, blocked) {
			continue
		}
		if len(seen) == 0 {
			b.WriteString("Links:\n")
		}
		seen = append(seen, u)
		fmt.Fprintf(&b, "- [%s](%s)\n", a.URLCitation.Title, u)
	}
	if len(seen) > 0 {
		b.WriteString("\n")
	}
	b.WriteString(msg.Content)
	return strings.TrimSpace(b.String()) + "\n", nil
}

// domainAllowed reports whether u's host is one of allowed (or under
// one), or none of blocked; with neither, every host is.
func domainAllowed(u string, allowed, blocked []string) bool {
	p, err := url.Parse(u)
	if err != nil {
		return false
	}
	host := strings.ToLower(p.Hostname())
	under := func(d string) bool {
		d = strings.ToLower(strings.TrimPrefix(d, "*."))
		return host == d || strings.HasSuffix(host, "."+d)
	}
	if len(allowed) > 0 {
		return slices.ContainsFunc(allowed, under)
	}
	return !slices.ContainsFunc(blocked, under)
}
