package agent

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestInputSummary(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"command":"ls  -la\n/tmp"}`, "ls -la /tmp"},
		{`{"path":"a.go","offset":3}`, "a.go"},
		{`{"pattern":"TODO","path":"src"}`, "TODO in src"},
		{`{"b":1,"a":"x"}`, `a="x" b=1`},
		{`not json`, "not json"},
		{`{"command":"echo 0123456789abcdef"}`, "echo 01234567…"},
	} {
		if got := InputSummary([]byte(tc.in), 14); got != tc.want {
			t.Errorf("InputSummary(%s) = %q, want %q", tc.in, got, tc.want)
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
	} {
		if d := cmp.Diff(tc.want, OutputPreview(tc.in, 3, 80)); d != "" {
			t.Errorf("OutputPreview(%q) (-want +got):\n%s", tc.in, d)
		}
	}
}
