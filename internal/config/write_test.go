package config

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestListAcceptsWhatUsersWrite(t *testing.T) {
	cases := map[string][]string{
		`p1`:             {"p1"},
		`p1, p2 ,,p3`:    {"p1", "p2", "p3"},
		`["p1"]`:         {"p1"},
		`["p1", "p2"]`:   {"p1", "p2"},
		`['p1','p2']`:    {"p1", "p2"},
		`[ p1 , p2 ]`:    {"p1", "p2"},
		`"p1, p2"`:       {"p1", "p2"},
		`[]`:             nil,
		``:               nil,
		`["with space"]`: {"with space"},
		`[p1`:            {"[p1"},
		`"p1", "p2"`:     {"p1", "p2"},
		`["a,b"]`:        {"\"a", "b\""},
	}
	for v, want := range cases {
		f, err := Parse("cfg", []byte("disabled_plugins = "+v+"\n"))
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(want, f.List("disabled_plugins")); d != "" {
			t.Errorf("disabled_plugins = %s (-want +got):\n%s", v, d)
		}
	}
}

func TestHookTimeout(t *testing.T) {
	cases := []struct {
		v    string
		want time.Duration
		warn bool
	}{
		{"20000", 20 * time.Second, false},
		{"20_000", 20 * time.Second, false},
		{`"750"`, 750 * time.Millisecond, false},
		{"20s", 20 * time.Second, false},
		{"1500ms", 1500 * time.Millisecond, false},
		{"abc", 0, true},
		{"0", 0, true},
		{"-5", 0, true},
		{"5.5", 0, true},
		{"99999999999", 0, true},
		{"", 0, true},
	}
	for _, c := range cases {
		f, _ := Parse("/u/.synaps-cli/config", []byte("extension_hook_timeout_ms = "+c.v+"\n"))
		got, warn := f.HookTimeout()
		if got != c.want || (warn != "") != c.warn {
			t.Errorf("%q: HookTimeout = %v, %q; want %v, warning %v", c.v, got, warn, c.want, c.warn)
		}
		if warn != "" && (!strings.Contains(warn, "/u/.synaps-cli/config") || !strings.Contains(warn, "extension_hook_timeout_ms") || !strings.Contains(warn, "write e.g.")) {
			t.Errorf("%q: warning %q does not name file, key and fix", c.v, warn)
		}
	}
	if d, w := (&File{}).HookTimeout(); d != 0 || w != "" {
		t.Errorf("unset: %v, %q", d, w)
	}
}

// Check warns about every setting that would silently do nothing, naming
// file, key and fix, and about nothing else.
func TestCheckWarnsAboutSettingsThatDoNothing(t *testing.T) {
	cases := []struct {
		config string
		want   []string // substrings, one per warning
	}{
		{"model = anthropic/x\ndisabled_plugins = [\"p1\", \"p2\"]\nextension_hook_timeout_ms = 20000\ntool_env_allow = A\nextension.p1.key = v\nidentity = I\n", nil},
		{"extension_hook_timeout_ms = 5 seconds\n", []string{`extension_hook_timeout_ms = "5 seconds" is not a number of milliseconds`}},
		{"disabled_plugins = [p1\n", []string{`"[p1" is not a plugin id`}},
		{"disabled_plugins = p1 p2\n", []string{`"p1 p2" is not a plugin id`}},
		{"disable_plugins = p1\n", []string{`unknown key "disable_plugins", so it does nothing; did you mean "disabled_plugins"?`}},
		{"Model = x\n", []string{`did you mean "model"`}},
		{"extension-hook-timeout-ms = 1\n", []string{`did you mean "extension_hook_timeout_ms"`}},
		{"my_own_note = x\n", nil},
		{"permissions.allow = Bash\nclaude.fail_closed = p\nplugins.verify = strict\ntui.status_command = x\nprice.x = input=1\nsandbox.anything = x\nmy.own = x\n", nil},
		{"permissions.alow = Bash\n", []string{`unknown key "permissions.alow", so it does nothing; did you mean "permissions.allow"?`}},
		{"claude.import_hooks = false\n", []string{`unknown key "claude.import_hooks", so it does nothing; the claude.* keys are claude.import_user_hooks, claude.fail_closed, claude.small_fast_model`}},
		{"plugins.verfy = strict\n", []string{`did you mean "plugins.verify"`}},
	}
	for _, c := range cases {
		f, err := Parse("/u/cfg", []byte(c.config))
		if err != nil {
			t.Fatal(err)
		}
		got := f.Check()
		if len(got) != len(c.want) {
			t.Errorf("%q: warnings %q, want %d", c.config, got, len(c.want))
			continue
		}
		for i, w := range c.want {
			if !strings.Contains(got[i], w) || !strings.HasPrefix(got[i], "/u/cfg: ") {
				t.Errorf("%q: warning %q, want it to name the file and say %q", c.config, got[i], w)
			}
		}
	}
}

// A config kept elsewhere and linked into place stays a link: the write
// goes to its target.
func TestSetWritesThroughSymlinks(t *testing.T) {
	for _, kind := range []string{"absolute", "relative", "chain", "dangling"} {
		dir := t.TempDir()
		dotfiles := filepath.Join(dir, "dotfiles")
		os.MkdirAll(dotfiles, 0o755)
		target := filepath.Join(dotfiles, "synaps-config")
		if kind != "dangling" {
			os.WriteFile(target, []byte("# mine\nmodel = a\n"), 0o640)
		}
		path := filepath.Join(dir, "base", "config")
		os.MkdirAll(filepath.Dir(path), 0o755)
		switch kind {
		case "absolute", "dangling":
			os.Symlink(target, path)
		case "relative":
			os.Symlink("../dotfiles/synaps-config", path)
		case "chain":
			mid := filepath.Join(dir, "mid")
			os.Symlink(target, mid)
			os.Symlink(mid, path)
		}
		if err := Set(path, "disabled_plugins", "p1"); err != nil {
			t.Fatalf("%s: %v", kind, err)
		}
		if info, err := os.Lstat(path); err != nil || info.Mode()&os.ModeSymlink == 0 {
			t.Errorf("%s: the config is no longer a symlink (%v)", kind, err)
		}
		got, _ := os.ReadFile(target)
		want := "# mine\nmodel = a\ndisabled_plugins = p1\n"
		if kind == "dangling" {
			want = "disabled_plugins = p1\n"
		}
		if string(got) != want {
			t.Errorf("%s: target holds %q, want %q", kind, got, want)
		}
		if info, _ := os.Stat(target); kind != "dangling" && info.Mode().Perm() != 0o640 {
			t.Errorf("%s: mode %v, want the file's own 0640", kind, info.Mode().Perm())
		}
		if tmp, _ := filepath.Glob(filepath.Join(dotfiles, ".*tmp")); len(tmp) > 0 {
			t.Errorf("%s: temporary files left: %v", kind, tmp)
		}
	}
}

// Concurrent read-modify-write updates of one key lose nothing.
func TestConcurrentUpdatesLoseNothing(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config")
	os.WriteFile(path, []byte("model = a\n"), 0o600)
	const writers = 8
	var wg sync.WaitGroup
	errs := make(chan error, writers)
	for i := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs <- Update(path, "disabled_plugins", func(v string, _ bool) (string, error) {
				return strings.Join(append(SplitList(v), fmt.Sprintf("p%d", i)), ","), nil
			})
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	f, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	got := f.List("disabled_plugins")
	sort.Strings(got)
	want := []string{"p0", "p1", "p2", "p3", "p4", "p5", "p6", "p7"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("after %d concurrent updates (-want +got):\n%s", writers, d)
	}
}
