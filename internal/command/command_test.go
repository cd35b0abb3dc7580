package command

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestLoadAndParse(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "commit.md"), "---\ndescription: Create a git commit\nargument-hint: [message]\nallowed-tools: Bash(git add:*), Bash(git status:*), Bash(git commit:*)\nmodel: claude-haiku-4-5\n---\n\nCommit with $ARGUMENTS\n")
	write(t, filepath.Join(dir, "frontend", "component.md"), "---\nallowed-tools:\n  - Read\n  - Edit(src/**)\n---\n# Make a component\nName: $1\n")
	write(t, filepath.Join(dir, "plain.md"), "Just a prompt.\n")
	write(t, filepath.Join(dir, "broken.md"), "---\ndescription: fine\nthis line is not a key\n---\nx\n")
	write(t, filepath.Join(dir, "notes.txt"), "not a command")
	cmds, warnings := Load(dir, "git-tools", "plugin")
	type row struct{ Q, NS, Desc, Hint, Model, Allowed string }
	var got []row
	for _, c := range cmds {
		got = append(got, row{c.Qualified(), c.Namespace, c.Description, c.ArgumentHint, c.Model, strings.Join(c.AllowedTools, " | ")})
	}
	want := []row{
		{"git-tools:commit", "", "Create a git commit", "[message]", "claude-haiku-4-5", "Bash(git add:*) | Bash(git status:*) | Bash(git commit:*)"},
		{"git-tools:component", "frontend", "Make a component", "", "", "Read | Edit(src/**)"},
		{"git-tools:plain", "", "Just a prompt.", "", "", ""},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("commands (-want +got):\n%s", diff)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], `broken.md: frontmatter line 3 "this line is not a key" is not `+"`key: value`") {
		t.Errorf("warnings %q", warnings)
	}
}

func TestResolve(t *testing.T) {
	s := NewSet([]Command{
		{Name: "commit", Plugin: "a", Source: "plugin"},
		{Name: "commit", Plugin: "b", Source: "plugin"},
		{Name: "review", Source: "user"},
	})
	for _, tc := range []struct {
		name, want, err string
		found           bool
	}{
		{"review", "review", "", true},
		{"a:commit", "a:commit", "", true},
		{"commit", "", "/commit is ambiguous: plugin a and plugin b bring one; use /a:commit or /b:commit", true},
		{"nope", "", "", false},
	} {
		c, found, err := s.Resolve(tc.name)
		if found != tc.found || (err != nil) != (tc.err != "") || (err != nil && err.Error() != tc.err) || (c != nil && c.Qualified() != tc.want) {
			t.Errorf("Resolve(%q) = %v, %v, %v", tc.name, c, found, err)
		}
	}
}

func TestExpand(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "README.md"), "# Demo\n")
	env := Env{WorkDir: dir, Environ: []string{"PATH=" + os.Getenv("PATH")}}
	for _, tc := range []struct {
		name, body, args, want string
	}{
		{"arguments", "Fix issue $ARGUMENTS now", "#12 quickly", "Fix issue #12 quickly now"},
		{"positional", "From $1 to $2 ($3)", "a b", "From a to b ()"},
		{"appended when the body has no $ARGUMENTS", "Review the code.", "focus on errors", "Review the code.\n\nARGUMENTS: focus on errors"},
		{"nothing appended without arguments", "Review the code.", "", "Review the code."},
		{"commands run in the project, after the arguments", "Files: !`ls`\nEcho: !`echo $1`", "hi", "Files: README.md\nEcho: hi"},
		{"a command with no output says so", "Status: !`true`", "", "Status: (Bash completed with no output)"},
		{"a failing command's output is kept", "Log: !`echo oops; exit 3`", "", "Log: oops"},
		{"a file named with @ is included", "Summarise @README.md please", "", "Summarise @README.md please\n\n<file path=\"README.md\">\n# Demo\n</file>"},
		{"an @ that names no file is left alone", "Ask @someone", "", "Ask @someone"},
	} {
		c := Command{Name: "x", body: tc.body}
		if got := c.Expand(context.Background(), tc.args, env); got != tc.want {
			t.Errorf("%s: Expand = %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestLoadAgents(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "reviewer.md"), "---\nname: code-reviewer\ndescription: Reviews code for bugs\ntools: Read, Grep, Glob\nmodel: sonnet\n---\nYou review code.\n")
	write(t, filepath.Join(dir, "plain.md"), "You help.\n")
	write(t, filepath.Join(dir, "bad.md"), "---\nnot a key line\n---\nx\n")
	agents, warnings := LoadAgents(dir, "p", "plugin")
	type row struct{ Name, Desc, Model, Tools, Prompt string }
	var got []row
	for _, a := range agents {
		got = append(got, row{a.Name, a.Description, a.Model, strings.Join(a.Tools, ","), a.Prompt})
	}
	want := []row{{"code-reviewer", "Reviews code for bugs", "sonnet", "Read,Grep,Glob", "You review code."}, {"plain", "", "", "", "You help."}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("agents (-want +got):\n%s", diff)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "bad.md: frontmatter line 2") {
		t.Errorf("warnings %q", warnings)
	}
}

// A definition that does not parse is not loaded, and the warning says
// so; a bad budget loads with the default, and says that instead.
func TestLoadAgentsWarnings(t *testing.T) {
	for _, tc := range []struct {
		name, file string
		loaded     bool
		warning    string
	}{
		{"flow list", "---\nname: x\ntools: [Read, Grep]\n---\nhi\n", true, ""},
		{"unclosed list", "---\nname: x\ntools: [Read\n---\nhi\n", false, `tools "[Read": the list opened with [ is never closed; the agent is not loaded`},
		{"bad name", "---\nname: [x\n---\nhi\n", false, `name "[x": use letters, digits`},
		{"unclosed frontmatter", "---\nname: x\nYou help.\n", false, "the frontmatter opened with --- is never closed (add a line --- after it); the agent is not loaded"},
		{"bad budget", "---\nname: x\nmax_turns: lots\n---\nhi\n", true, `max_turns = "lots" is not a whole number; the agent loads with the default budget`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			write(t, filepath.Join(dir, "a.md"), tc.file)
			agents, warnings := LoadAgents(dir, "", "user")
			if got := len(agents) == 1; got != tc.loaded {
				t.Errorf("loaded = %v, want %v (%+v)", got, tc.loaded, agents)
			}
			if tc.warning == "" && len(warnings) > 0 || tc.warning != "" && (len(warnings) != 1 || !strings.Contains(warnings[0], tc.warning)) {
				t.Errorf("warnings %q, want %q", warnings, tc.warning)
			}
			if tc.name == "flow list" && (len(agents) != 1 || strings.Join(agents[0].Tools, ",") != "Read,Grep") {
				t.Errorf("tools = %+v", agents)
			}
		})
	}
}
