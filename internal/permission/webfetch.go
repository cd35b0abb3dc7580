package permission

import (
	"encoding/json"
	"net/url"
	"strings"
)

// isWebFetch: the rule names the web_fetch tool, by Claude's name or
// synaps's.
func isWebFetch(name string) bool { return name == "WebFetch" || name == "web_fetch" }

// domainMatches matches a WebFetch(domain:HOST) specifier against a
// web_fetch call's url: HOST itself, or any name under it when written
// *.HOST, case not mattering; a call without a readable url matches
// nothing.
func domainMatches(spec string, input json.RawMessage) bool {
	want, ok := strings.CutPrefix(spec, "domain:")
	if !ok {
		return false
	}
	var in struct {
		URL string `json:"url"`
	}
	if json.Unmarshal(input, &in) != nil {
		return false
	}
	u, err := url.Parse(in.URL)
	if err != nil {
		return false
	}
	host, want := strings.ToLower(u.Hostname()), strings.ToLower(strings.TrimSpace(want))
	if rest, ok := strings.CutPrefix(want, "*."); ok {
		return strings.HasSuffix(host, "."+rest)
	}
	return host != "" && host == want
}
