package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParse(t *testing.T) {
	data := "# comment\n\nmodel = claude-sonnet\n disabled_plugins = a, b ,,c\nquoted = \"x y\"\nempty =\nmodel = last-wins\nurl = http://h/?a=b\n"
	f, err := Parse("cfg", []byte(data))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, k := range f.Keys() {
		got[k], _ = f.Get(k)
	}
	want := map[string]string{"model": "last-wins", "disabled_plugins": "a, b ,,c", "quoted": "x y", "empty": "", "url": "http://h/?a=b"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("values (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]string{"a", "b", "c"}, f.List("disabled_plugins")); d != "" {
		t.Errorf("List (-want +got):\n%s", d)
	}
}

// A bad line is skipped with a problem naming the file, line and fix; the
// lines around it still count (a cloned project's bad .synaps/config must
// not stop synaps starting).
func TestParseBadLineIsAProblem(t *testing.T) {
	f, err := Parse("/home/u/.synaps-cli/config", []byte("a = 1\njust words\nb = 2\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Problems) != 1 || !strings.Contains(f.Problems[0], "/home/u/.synaps-cli/config:2:") || !strings.Contains(f.Problems[0], "key = value") {
		t.Fatalf("problems = %q; want one with file:line and the fix", f.Problems)
	}
	if d := cmp.Diff([]string{"a", "b"}, f.Keys()); d != "" {
		t.Errorf("keys (-want +got):\n%s", d)
	}
	if d := cmp.Diff(f.Problems, f.Check()[:1]); d != "" {
		t.Errorf("Check does not say the problem first (-want +got):\n%s", d)
	}
}

func TestLoadMissingIsEmpty(t *testing.T) {
	f, err := Load(filepath.Join(t.TempDir(), "nope"))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := f.Get("x"); ok || len(f.Keys()) != 0 {
		t.Fatal("missing file should be empty")
	}
}

func TestBaseDir(t *testing.T) {
	env := map[string]string{"HOME": "/home/u"}
	got, err := BaseDir(func(k string) string { return env[k] })
	if err != nil || got != "/home/u/.synaps-cli" {
		t.Fatalf("BaseDir = %q, %v", got, err)
	}
	dir := t.TempDir()
	env[BaseDirEnv] = dir
	got, _ = BaseDir(func(k string) string { return env[k] })
	if got != dir {
		t.Fatalf("BaseDir with override = %q, want %q", got, dir)
	}
}

func TestSet(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "config")
	steps := []struct{ key, value, want string }{
		{"model", "a", "model = a\n"},
		{"disabled_plugins", "x,y", "model = a\ndisabled_plugins = x,y\n"},
		{"model", "b", "model = b\ndisabled_plugins = x,y\n"},
		{"disabled_plugins", "", "model = b\n"},
	}
	for _, s := range steps {
		if err := Set(path, s.key, s.value); err != nil {
			t.Fatal(err)
		}
		got, _ := os.ReadFile(path)
		if string(got) != s.want {
			t.Fatalf("after Set(%s=%s): %q, want %q", s.key, s.value, got, s.want)
		}
	}
	os.WriteFile(path, []byte("# keep me\nmodel = c # not a comment\n"), 0o600)
	Set(path, "model", "d")
	if got, _ := os.ReadFile(path); string(got) != "# keep me\nmodel = d\n" {
		t.Fatalf("comment lost: %q", got)
	}
}

func TestEnvNames(t *testing.T) {
	for _, tc := range []struct {
		name, line string
		want       []string
		warn       []string // substrings, one per warning
	}{
		{"unset", "", nil, nil},
		{"comma list", `tool_env_allow = GITHUB_TOKEN, NPM_TOKEN`, []string{"GITHUB_TOKEN", "NPM_TOKEN"}, nil},
		{"bracketed", `tool_env_allow = ["GITHUB_TOKEN", 'NPM_TOKEN']`, []string{"GITHUB_TOKEN", "NPM_TOKEN"}, nil},
		{"one", `tool_env_allow = gh_token`, []string{"gh_token"}, nil},
		{"empty", `tool_env_allow =`, nil, nil},
		{"not names", `tool_env_allow = GITHUB_TOKEN, 9X, A-B, {"x":1}`, []string{"GITHUB_TOKEN"}, []string{
			`cfg: tool_env_allow: "9X" is not an environment variable name`,
			`cfg: tool_env_allow: "A-B" is not`,
			`cfg: tool_env_allow: "{\"x\":1}" is not`,
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := Parse("cfg", []byte(tc.line+"\n"))
			if err != nil {
				t.Fatal(err)
			}
			got, warns := f.EnvNames(ToolEnvAllow)
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("names (-want +got):\n%s", d)
			}
			if len(warns) != len(tc.warn) {
				t.Fatalf("warnings = %q, want %d", warns, len(tc.warn))
			}
			for i, w := range warns {
				if !strings.Contains(w, tc.warn[i]) || !strings.Contains(w, "tool_env_allow = GITHUB_TOKEN, NPM_TOKEN") {
					t.Errorf("warning %q: want %q and the fix", w, tc.warn[i])
				}
			}
		})
	}
}
