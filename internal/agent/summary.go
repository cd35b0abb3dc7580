package agent

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// InputSummary is a one-line summary of a tool call's input for UIs: the
// command for bash, the path for file tools, else the input's short JSON.
func InputSummary(input []byte, max int) string {
	var m map[string]any
	if json.Unmarshal(input, &m) != nil {
		return clip(string(input), max)
	}
	for _, k := range []string{"command", "pattern", "path", "name", "query", "url"} {
		if v, ok := m[k].(string); ok && v != "" {
			s := v
			if k == "pattern" {
				if p, ok := m["path"].(string); ok && p != "" {
					s += " in " + p
				}
			}
			return clip(oneLine(s), max)
		}
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, 0, len(keys))
	for _, k := range keys {
		b, _ := json.Marshal(m[k])
		parts = append(parts, fmt.Sprintf("%s=%s", k, b))
	}
	return clip(oneLine(strings.Join(parts, " ")), max)
}

// OutputPreview is the first lines of a tool's output and a note of how
// many more there are.
func OutputPreview(out string, lines, width int) []string {
	out = strings.TrimRight(out, "\n")
	if out == "" {
		return []string{"(no output)"}
	}
	all := strings.Split(out, "\n")
	n := min(lines, len(all))
	preview := make([]string, 0, n+1)
	for _, l := range all[:n] {
		preview = append(preview, clip(strings.TrimRight(l, "\r"), width))
	}
	if rest := len(all) - n; rest > 0 {
		preview = append(preview, fmt.Sprintf("… %d more line%s", rest, plural(rest)))
	}
	return preview
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

func clip(s string, max int) string {
	if max <= 0 {
		return s
	}
	r := []rune(s)
	if len(r) <= max {
		return s
	}
	return string(r[:max-1]) + "…"
}
