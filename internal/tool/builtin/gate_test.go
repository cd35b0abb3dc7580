package builtin

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/synaps-cli/synaps/internal/permission"
	"github.com/synaps-cli/synaps/internal/tool"
)

// The tools that reach files their call did not name — grep and find in
// the directory they walk, ls in the one it lists — leave out what the
// Read deny rules cover, links judged by their targets, and say so.
func TestFileGate(t *testing.T) {
	root := t.TempDir()
	proj, home := filepath.Join(root, "proj"), filepath.Join(root, "home")
	writeTree(t, proj, map[string]string{"notes.txt": "token: public\n", "secrets/key": "token: hunter2\n"})
	writeTree(t, home, map[string]string{".aws/credentials": "token: AKIA\n"})
	if err := os.Symlink(filepath.Join(home, ".aws", "credentials"), filepath.Join(proj, "creds")); err != nil {
		t.Skip(err)
	}
	deny, err := permission.ParseRules("Read(~/.aws/**), Read(secrets/**)")
	if err != nil {
		t.Fatal(err)
	}
	gate := permission.New(permission.Config{Rules: permission.Rules{Deny: deny}, WorkDir: proj, Home: home})
	gated, open := tools(t, Options{WorkDir: proj, Gate: gate}), tools(t, Options{WorkDir: proj})
	for _, tc := range []struct {
		name, tool, input string
		want, ungated     string
	}{
		{"grep", "grep", `{"pattern": "token"}`,
			"notes.txt:1:token: public\n[skipped 2 files the permission rules deny reading, e.g. creds (deny rule Read(~/.aws/**))]",
			"notes.txt:1:token: public\nsecrets/key:1:token: hunter2\n"},
		{"grep none left", "grep", `{"pattern": "hunter2"}`,
			"no matches for \"hunter2\" in .\n[skipped 2 files the permission rules deny reading, e.g. creds (deny rule Read(~/.aws/**))]",
			"secrets/key:1:token: hunter2\n"},
		{"find", "find", `{"pattern": "**"}`,
			"notes.txt\nsecrets/\n[skipped 2 paths the permission rules deny reading, e.g. creds (deny rule Read(~/.aws/**))]",
			"creds\nnotes.txt\nsecrets/\nsecrets/key\n"},
		{"ls", "ls", `{}`,
			"secrets/\nnotes.txt (14 B)\n[skipped creds: the permission rules deny reading it (deny rule Read(~/.aws/**))]",
			"secrets/\ncreds -> " + filepath.Join(home, ".aws", "credentials") + "\nnotes.txt (14 B)\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if d := cmp.Diff(tool.Result{Output: tc.want}, run(t, gated[tc.tool], tc.input)); d != "" {
				t.Errorf("with the gate (-want +got):\n%s", d)
			}
			if d := cmp.Diff(tool.Result{Output: tc.ungated}, run(t, open[tc.tool], tc.input)); d != "" {
				t.Errorf("without a gate (-want +got):\n%s", d)
			}
		})
	}
}

// BenchmarkGrepGated is grep over a tree of 200 files with and without
// a gate holding three Read deny rules: the price of the per-file check.
func BenchmarkGrepGated(b *testing.B) {
	proj := b.TempDir()
	files := map[string]string{}
	for i := range 200 {
		files[filepath.Join("pkg", string(rune('a'+i%20)), "f"+string(rune('a'+i/20))+".go")] = "package x\n\nfunc F() {}\n"
	}
	writeTree(b, proj, files)
	deny, _ := permission.ParseRules("Read(~/.aws/**), Read(.env), Read(secrets/**)")
	gate := permission.New(permission.Config{Rules: permission.Rules{Deny: deny}, WorkDir: proj, Home: "/home/u"})
	for _, c := range []struct {
		name string
		o    Options
	}{{"open", Options{WorkDir: proj}}, {"gated", Options{WorkDir: proj, Gate: gate}}} {
		b.Run(c.name, func(b *testing.B) {
			grep := tools(b, c.o)["grep"]
			for b.Loop() {
				run(b, grep, `{"pattern": "func F"}`)
			}
		})
	}
}
