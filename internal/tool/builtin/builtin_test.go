package builtin

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/synaps-cli/synaps/internal/tool"
)

// tools returns the built-ins by name, working in dir.
func tools(t testing.TB, o Options) map[string]tool.Tool {
	t.Helper()
	m := map[string]tool.Tool{}
	for _, tl := range All(o) {
		m[tl.Spec().RuntimeName] = tl
	}
	return m
}

// run calls tl with input and fails the test on a Go error.
func run(t testing.TB, tl tool.Tool, input string) tool.Result {
	t.Helper()
	res, err := tl.Run(context.Background(), json.RawMessage(input))
	if err != nil {
		t.Fatalf("%s(%s): Go error %v", tl.Spec().RuntimeName, input, err)
	}
	return res
}

// writeTree creates files (slash paths relative to dir, parents included).
func writeTree(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// mustJSON renders v as a tool input.
func mustJSON(t testing.TB, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestAllSpecs(t *testing.T) {
	var names []string
	for _, tl := range All(Options{}) {
		s := tl.Spec()
		names = append(names, s.RuntimeName)
		if s.Source != Source {
			t.Errorf("%s: Source = %q", s.RuntimeName, s.Source)
		}
		if len(s.Description) < 60 {
			t.Errorf("%s: description too thin: %q", s.RuntimeName, s.Description)
		}
		if tool.SanitizeName(s.RuntimeName) != s.RuntimeName {
			t.Errorf("%s: runtime name is not model-safe", s.RuntimeName)
		}
		if _, err := tool.CompileSchema(s.RuntimeName, s.InputSchema); err != nil {
			t.Errorf("schema does not compile: %v", err)
		}
	}
	if d := cmp.Diff([]string{"bash", "read", "write", "edit", "grep", "find", "ls"}, names); d != "" {
		t.Fatalf("tools (-want +got):\n%s", d)
	}
}

func TestDefaults(t *testing.T) {
	o := Options{}.withDefaults()
	wd, _ := os.Getwd()
	if o.WorkDir != wd || o.BashTimeout != 120*time.Second || o.MaxOutput != 30000 {
		t.Fatalf("defaults = %+v", o)
	}
	if got := (Options{WorkDir: "rel"}).withDefaults().WorkDir; got != filepath.Join(wd, "rel") {
		t.Fatalf("relative WorkDir not made absolute: %q", got)
	}
}

func TestResolve(t *testing.T) {
	home, _ := os.UserHomeDir()
	o := Options{WorkDir: "/work/dir"}
	for _, tc := range []struct{ in, want string }{
		{"a.txt", "/work/dir/a.txt"},
		{"./sub/../b", "/work/dir/b"},
		{"/etc/hosts", "/etc/hosts"},
		{"~/x", filepath.Join(home, "x")},
	} {
		if got := o.resolve(tc.in); got != tc.want {
			t.Errorf("resolve(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestInvalidInputIsToolError(t *testing.T) {
	for name, tl := range tools(t, Options{WorkDir: t.TempDir()}) {
		res := run(t, tl, `{"path": 5, "pattern": 5, "command": 5}`)
		if !res.IsError || !strings.HasPrefix(res.Output, "invalid input:") {
			t.Errorf("%s: %+v", name, res)
		}
	}
}

func TestCancelledContext(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"a.txt": "hello\n"})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	inputs := map[string]string{
		"bash":  `{"command":"echo hi"}`,
		"read":  `{"path":"a.txt"}`,
		"write": `{"path":"b.txt","content":"x"}`,
		"edit":  `{"path":"a.txt","old_string":"hello","new_string":"bye"}`,
		"grep":  `{"pattern":"hello"}`,
		"find":  `{"pattern":"**"}`,
		"ls":    `{}`,
	}
	for name, tl := range tools(t, Options{WorkDir: dir}) {
		if _, err := tl.Run(ctx, json.RawMessage(inputs[name])); err != context.Canceled {
			t.Errorf("%s: err = %v, want context.Canceled", name, err)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "b.txt")); err == nil {
		t.Error("write ran under a cancelled context")
	}
}

func TestFormatSize(t *testing.T) {
	for n, want := range map[int64]string{0: "0 B", 1023: "1023 B", 1536: "1.5 KiB", 10 << 20: "10.0 MiB", 3 << 30: "3.0 GiB"} {
		if got := formatSize(n); got != want {
			t.Errorf("formatSize(%d) = %q, want %q", n, got, want)
		}
	}
}

// Only bash, write and edit change things; the rest are declared
// read-only, so permission modes run them and a turn's calls of them may
// overlap.
func TestReadOnlyDeclared(t *testing.T) {
	got := map[string]bool{}
	for _, tl := range All(Options{WorkDir: t.TempDir()}) {
		got[tl.Spec().RuntimeName] = tl.Spec().ReadOnly
	}
	want := map[string]bool{"bash": false, "write": false, "edit": false, "read": true, "grep": true, "find": true, "ls": true}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("ReadOnly by tool (-want +got):\n%s", d)
	}
}
