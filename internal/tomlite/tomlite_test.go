package tomlite

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParse(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want map[string]any
	}{
		{"gemini command", "description = \"Reviews\"\nprompt = \"\"\"\nLine one {{args}}\n!{git diff}\n\"\"\"\n",
			map[string]any{"description": "Reviews", "prompt": "Line one {{args}}\n!{git diff}\n"}},
		{"literal strings", "a = 'C:\\path'\nb = '''\nraw \\n\n'''", map[string]any{"a": `C:\path`, "b": "raw \\n\n"}},
		{"escapes", `s = "tab\there \"q\" \u00e9"`, map[string]any{"s": "tab\there \"q\" é"}},
		{"line ending backslash", "s = \"\"\"one \\\n   two\"\"\"", map[string]any{"s": "one two"}},
		{"quotes at the end", `s = """say "hi""""`, map[string]any{"s": `say "hi"`}},
		{"numbers and booleans", "a = 100 # comment\nb = -3\nc = 1.5\nd = true\ne = false\nf = 1_000",
			map[string]any{"a": int64(100), "b": int64(-3), "c": 1.5, "d": true, "e": false, "f": int64(1000)}},
		{"arrays over lines", "a = [\n  \"x\", # one\n  'y',\n]\nb = []", map[string]any{"a": []any{"x", "y"}, "b": []any{}}},
		{"tables", "[server]\nname = \"x\"\n[server.env]\nK = \"v\"",
			map[string]any{"server": map[string]any{"name": "x", "env": map[string]any{"K": "v"}}}},
		{"array of tables (policy rules)", "[[rule]]\ntoolName = \"run_shell_command\"\ndecision = \"deny\"\npriority = 100\n\n[[rule]]\ntoolName = [\"write_file\", \"replace\"]\ndecision = \"ask_user\"\n",
			map[string]any{"rule": []map[string]any{
				{"toolName": "run_shell_command", "decision": "deny", "priority": int64(100)},
				{"toolName": []any{"write_file", "replace"}, "decision": "ask_user"},
			}}},
		{"dotted and quoted keys", "a.b = 1\n\"c d\" = 2", map[string]any{"a": map[string]any{"b": int64(1)}, "c d": int64(2)}},
		{"CRLF and BOM", "\ufeffa = \"x\"\r\nb = 'y'\r\n", map[string]any{"a": "x", "b": "y"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Parse(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("-want +got:\n%s", d)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct{ in, want string }{
		{"a = \"open", `line 1: the string is not closed with "`},
		{"a = 1\nb = \"\"\"never", `line 2: the string is not closed with """`},
		{"a = 1\na = 2", `line 2: the key "a" is set twice`},
		{"a = bare", `line 1: "bare" is not a value synaps reads (strings need quotes)`},
		{"a = {x = 1}", "line 1: inline tables"},
		{"a = 1 b = 2", "line 1: unexpected 'b' after the value"},
		{"a = [1, 2", "line 1: the array is not closed with ]"},
		{"= 1", "line 1: expected a key"},
		{"a 1", `line 1: expected = after the key "a"`},
		{"s = \"\\q\"", `line 1: unknown escape \q`},
		{"a = 1\n[a]", `line 2: "a" is a value, not a table`},
		{"[t\n", "line 1: expected ] to close the table header"},
	}
	for _, tt := range tests {
		_, err := Parse(tt.in)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Parse(%q) = %v, want an error containing %q", tt.in, err, tt.want)
		}
	}
}

// FuzzParse: no input panics or hangs.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"a = '''x'''''", "[[r]]\nx = [1,\n2]", `s = """a\` + "\n" + `b"""`, "a.b.c = 'x'"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { _, _ = Parse(s) })
}

func BenchmarkParseCommand(b *testing.B) {
	text := "description = \"Reviews the code\"\nprompt = \"\"\"\n" + strings.Repeat("A line of the prompt with {{args}} and !{git diff}.\n", 200) + "\"\"\"\n"
	for b.Loop() {
		if _, err := Parse(text); err != nil {
			b.Fatal(err)
		}
	}
}
