package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSpreadLists(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	os.Mkdir(a, 0o755)
	os.Mkdir(b, 0o755)
	cfg := filepath.Join(dir, "mcp.json")
	os.WriteFile(cfg, []byte("{}"), 0o644)
	tests := []struct {
		name string
		in   string
		want string
	}{
		{"two rules", "-p hi --allowedTools Bash Read", "-p hi --allowedTools=Bash --allowedTools=Read"},
		{"rules with parentheses", "-p hi --allowedTools Bash(git diff:*) Edit(docs/**)", "-p hi --allowedTools=Bash(git diff:*) --allowedTools=Edit(docs/**)"},
		{"stops at a flag", "--disallowedTools Bash Write -p hi", "--disallowedTools=Bash --disallowedTools=Write -p hi"},
		{"a prompt after the rules stays the prompt", "-p --allowedTools Bash fix the tests", "-p --allowedTools=Bash fix the tests"},
		{"a sentence is not a rule", "-p --allowedTools Bash 'Fix it now'", "-p --allowedTools=Bash 'Fix it now'"},
		{"mcp rule", "--allowed-tools mcp__gh__issue Read", "--allowed-tools=mcp__gh__issue --allowed-tools=Read"},
		{"equals form goes on", "--allowedTools=Bash Read", "--allowedTools=Bash --allowedTools=Read"},
		{"tools is one set", "--tools Bash Read Edit", "--tools=Bash,Read,Edit"},
		{"directories", "--add-dir " + a + " " + b + " nothere", "--add-dir=" + a + " --add-dir=" + b + " nothere"},
		{"mcp configs", "--mcp-config " + cfg + " {\"mcpServers\":{}} x", "--mcp-config=" + cfg + " --mcp-config={\"mcpServers\":{}} x"},
		{"double dash ends it", "--allowedTools Bash -- Read", "--allowedTools=Bash -- Read"},
		{"flag last", "--allowedTools", "--allowedTools"},
		{"other flags untouched", "--model M Read", "--model M Read"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := strings.Join(spreadLists(splitArgs(tt.in)), " ")
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("spreadLists(%s) (-want +got):\n%s", tt.in, d)
			}
		})
	}
}

// splitArgs splits on spaces outside single quotes and parentheses.
func splitArgs(s string) []string {
	var out []string
	var cur strings.Builder
	quote, depth := false, 0
	for _, r := range s {
		switch {
		case r == '\'':
			quote = !quote
			cur.WriteRune(r)
		case r == '(':
			depth++
			cur.WriteRune(r)
		case r == ')':
			depth--
			cur.WriteRune(r)
		case r == ' ' && !quote && depth == 0:
			out = append(out, cur.String())
			cur.Reset()
		default:
			cur.WriteRune(r)
		}
	}
	return append(out, cur.String())
}

// BenchmarkSpreadLists: every synaps command line goes through
// spreadLists before cobra parses it.
func BenchmarkSpreadLists(b *testing.B) {
	args := []string{"-p", "fix the tests", "--model", "anthropic/claude-sonnet-4-5", "--allowedTools", "Bash(go test:*)", "Edit(docs/**)", "Read", "--output-format", "json"}
	for b.Loop() {
		spreadLists(args)
	}
}
