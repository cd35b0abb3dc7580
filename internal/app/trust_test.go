package app

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/synaps-cli/synaps/internal/plugin"
)

// trusted-projects holds exact paths: trusting one directory never trusts
// another, whatever its name holds.
func TestTrustStoresExactPaths(t *testing.T) {
	root := t.TempDir()
	cases := []struct {
		name    string
		trust   string   // the directory trusted
		refused string   // "" when it is trusted; else in the error
		notAlso []string // directories that must stay untrusted
	}{
		{"newline in the name", "proj\n" + filepath.Join(root, "victim"), "control character", []string{filepath.Join(root, "victim"), "proj"}},
		{"trailing space", "proj ", "", []string{"proj"}},
		{"leading space", " lead", "", []string{"lead"}},
		{"carriage return", "cr\r", "control character", []string{"cr"}},
		{"tab", "a\tb", "control character", []string{"a"}},
		{"escape", "e\x1b[31m", "control character", []string{"e"}},
	}
	for _, c := range cases {
		base := t.TempDir()
		dir := c.trust
		if !filepath.IsAbs(dir) {
			dir = filepath.Join(root, dir)
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		added, err := Trust(base, dir)
		if c.refused != "" {
			if err == nil || !strings.Contains(err.Error(), c.refused) || !strings.Contains(err.Error(), "rename the directory") {
				t.Errorf("%s: Trust = %v, %v; want an error saying %q and the fix", c.name, added, err, c.refused)
			}
		} else if err != nil || !added {
			t.Errorf("%s: Trust = %v, %v", c.name, added, err)
		} else if ok, _ := plugin.IsTrusted(base, dir); !ok {
			t.Errorf("%s: %q is not trusted after trusting it", c.name, dir)
		}
		for _, other := range c.notAlso {
			if !filepath.IsAbs(other) {
				other = filepath.Join(root, other)
			}
			os.MkdirAll(other, 0o755)
			if ok, _ := plugin.IsTrusted(base, other); ok {
				t.Errorf("%s: trusting %q also trusts %q", c.name, dir, other)
			}
		}
	}
}

// A file written before paths were checked, or by hand: its lines are
// exact paths too, and a directory with a control character is never
// trusted by one.
func TestTrustFileIsReadExactly(t *testing.T) {
	base, root := t.TempDir(), t.TempDir()
	lines := []string{filepath.Join(root, "spaced") + "  ", filepath.Join(root, "nl"), filepath.Join(root, "win") + "\r", "# " + filepath.Join(root, "comment")}
	os.WriteFile(filepath.Join(base, plugin.TrustedProjectsFile), []byte(strings.Join(lines, "\n")+"\n"), 0o600)
	for dir, want := range map[string]bool{
		"spaced": false, "spaced  ": true, "nl": true, "nl\nx": false, "win": true, "comment": false,
	} {
		if got, _ := plugin.IsTrusted(base, filepath.Join(root, dir)); got != want {
			t.Errorf("IsTrusted(%q) = %v, want %v", dir, got, want)
		}
	}
}
