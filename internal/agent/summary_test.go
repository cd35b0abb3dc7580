package agent

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestInputSummary(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"bash", `{"command":"ls  -la\n/tmp"}`, "ls -la …"},
		{"read", `{"path":"a.go","offset":3}`, "a.go"},
		{"ls", `{}`, "."},
		{"grep", `{"pattern":"TODO","path":"src"}`, "TODO in src"},
		{"find", `{"pattern":"*.go"}`, "*.go"},
		{"hello-ext_hello", `{"name":"Ada"}`, "Ada"},
		{"other", `{"b":1,"a":"x"}`, `{"a":"x","b":…`},
		{"bash", `not json`, "not json"},
		{"bash", `{"command":"echo 0123456789abcdef"}`, "echo 01234567…"},
		{"bash", `{"command":"echo \u001b[31mred\u001b[0m\u0007"}`, "echo red"},
	} {
		if got := InputSummary(tc.name, []byte(tc.in), 14); got != tc.want {
			t.Errorf("InputSummary(%s, %s) = %q, want %q", tc.name, tc.in, got, tc.want)
		}
	}
}

func TestOutputPreview(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"", []string{"(no output)"}},
		{"one\n", []string{"one"}},
		{"1\n2\n3\n4\n5", []string{"1", "2", "3", "… 2 more lines"}},
		{"1\n2\n3\n4", []string{"1", "2", "3", "… 1 more line"}},
		{"\x1b[2J\x1b]0;title\x07clear\tscreen", []string{"clear    screen"}},
	} {
		if d := cmp.Diff(tc.want, OutputPreview(tc.in, 3, 80)); d != "" {
			t.Errorf("OutputPreview(%q) (-want +got):\n%s", tc.in, d)
		}
	}
}
