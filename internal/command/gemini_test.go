package command

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestLoadTOML(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "review.toml"), "description = \"Reviews\"\nprompt = \"Review it\"\n")
	write(t, filepath.Join(dir, "git", "commit.toml"), "prompt = '''\nCommit {{args}}\n'''\n")
	write(t, filepath.Join(dir, "bad.toml"), "prompt = \"open\n")
	write(t, filepath.Join(dir, "none.toml"), "description = \"no prompt\"\n")
	write(t, filepath.Join(dir, "notes.md"), "not a TOML command")
	cmds, warnings := LoadTOML(dir, "ext", "plugin")
	var got []string
	for _, c := range cmds {
		got = append(got, c.Qualified()+" = "+c.Description)
	}
	if d := cmp.Diff([]string{"ext:git:commit = Commit {{args}}", "ext:review = Reviews"}, got); d != "" {
		t.Errorf("commands: %s", d)
	}
	if len(warnings) != 2 || !strings.Contains(warnings[0], "bad.toml: line 1: the string is not closed") || !strings.Contains(warnings[1], `none.toml: no "prompt" string`) {
		t.Errorf("warnings: %q", warnings)
	}
	set := NewSet(cmds)
	if c, ok, err := set.Resolve("git:commit"); !ok || err != nil || c.Name != "git:commit" {
		t.Errorf("Resolve(git:commit) = %v %v %v", c, ok, err)
	}
}

func TestExpandGemini(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "notes.txt"), "the notes {{args}} !{rm -rf x}\n")
	write(t, filepath.Join(dir, "secret.txt"), "s3cret")
	write(t, filepath.Join(dir, "docs", "a.md"), "A")
	write(t, filepath.Join(dir, "docs", "sub", "b.md"), "B")
	write(t, filepath.Join(dir, "docs", ".hidden"), "H")
	write(t, filepath.Join(dir, "docs", "secret.txt"), "S")
	var lines []string
	env := Env{WorkDir: dir,
		Bash: func(ctx context.Context, line string) string {
			lines = append(lines, line)
			return shell(dir)(ctx, line)
		},
		DenyRead: func(p string) string {
			if strings.HasSuffix(p, "secret.txt") {
				return "denied by Read(secret.txt)"
			}
			return ""
		}}
	tests := []struct {
		name, prompt, args, want string
		lines                    []string
	}{
		{"args raw in text", "Do {{args}} now", "a 'b' $HOME", "Do a 'b' $HOME now", nil},
		{"args quoted in a shell command", "Out: !{echo {{args}}}", "x; touch pwned", "Out: x; touch pwned", []string{"echo 'x; touch pwned'"}},
		{"args in double quotes", `!{echo "[{{args}}]"}`, `a"$(id)`, `[a"$(id)]`, []string{`echo "[a\"\$(id)]"`}},
		{"nested braces", "!{echo {a,b}}", "", "{a,b}", []string{"echo {a,b}"}},
		{"file included once, not reread", "@{notes.txt}", "z", "the notes {{args}} !{rm -rf x}\n\n/c z", nil},
		{"file denied", "@{secret.txt}", "", "(@{secret.txt} is not included: denied by Read(secret.txt))", nil},
		{"no args placeholder", "Review", "HEAD~1", "Review\n\n/c HEAD~1", nil},
		{"directory", "@{docs}", "", "<file path=\"docs/a.md\">\nA\n</file>\n<file path=\"docs/sub/b.md\">\nB\n</file>\n(@{docs}: 1 more files not included: past 50 files or 1048576 bytes, or denied by the Read rules)", nil},
		{"unbalanced stays text", "!{echo", "", "!{echo", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lines = nil
			c := Command{Name: "c", Gemini: true, body: tt.prompt}
			got := c.Expand(context.Background(), tt.args, env)
			if got != tt.want {
				t.Errorf("Expand = %q, want %q", got, tt.want)
			}
			if d := cmp.Diff(tt.lines, lines); d != "" {
				t.Errorf("shell lines: %s", d)
			}
		})
	}
}

func BenchmarkExpandGemini(b *testing.B) {
	c := Command{Name: "c", Gemini: true, body: strings.Repeat("Review the change {{args}} with care.\n", 200)}
	for b.Loop() {
		_ = c.Expand(context.Background(), "HEAD~1", Env{})
	}
}

// Real agents (george-cto-plugin) write long descriptions as YAML block
// scalars.
func TestFrontmatterBlockScalars(t *testing.T) {
	m, err := parseFrontmatter([]byte("name: George\ndescription: >-\n  George is your CTO,\n  not a coder.\n\n  Second paragraph.\nliteral: |\n  one\n  two\ntools:\n  - agent\n  - read"))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"name": "George", "description": "George is your CTO, not a coder.\nSecond paragraph.", "literal": "one\ntwo", "tools": ""}
	if d := cmp.Diff(want, m.values); d != "" {
		t.Errorf("values: %s", d)
	}
	if d := cmp.Diff(map[string][]string{"tools": {"agent", "read"}}, m.lists); d != "" {
		t.Errorf("lists: %s", d)
	}
}
