package command

import (
	"context"
	"os"
	"os/exec"
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
	write(t, filepath.Join(dir, "broken.md"), "---\nthis line is not a key\ndescription: fine\n---\nx\n")
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
	if len(warnings) != 1 || !strings.Contains(warnings[0], `broken.md: frontmatter line 2 "this line is not a key" is not `+"`key: value`") {
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
	env := Env{WorkDir: dir, Bash: shell(dir)}
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
		{"arguments are data in a command line", "Echo: !`echo $ARGUMENTS`", "x; touch pwned", "Echo: x; touch pwned"},
		{"an argument holding !`…` is text", "Fix $ARGUMENTS", "!`echo ran`", "Fix !`echo ran`"},
	} {
		c := Command{Name: "x", body: tc.body}
		if got := c.Expand(context.Background(), tc.args, env); got != tc.want {
			t.Errorf("%s: Expand = %q, want %q", tc.name, got, tc.want)
		}
	}
}

// shell runs a !`cmd` line with sh in dir, as the test's Env.Bash.
func shell(dir string) func(context.Context, string) string {
	return func(ctx context.Context, line string) string {
		cmd := exec.CommandContext(ctx, "sh", "-c", line)
		cmd.Dir = dir
		out, _ := cmd.CombinedOutput()
		return string(out)
	}
}

// A !`cmd` line runs only through Env.Bash, which sees the line with the
// arguments quoted; with no Env.Bash it does not run and says so.
func TestExpandRunsThroughBash(t *testing.T) {
	dir := t.TempDir()
	var lines []string
	env := Env{WorkDir: dir, Bash: func(_ context.Context, line string) string {
		lines = append(lines, line)
		return "refused by a guard"
	}}
	c := Command{Name: "x", body: "A: !`echo $ARGUMENTS`\nB: !`rm -rf $1`"}
	if got, want := c.Expand(context.Background(), "x; touch pwned", env), "A: refused by a guard\nB: refused by a guard"; got != want {
		t.Errorf("Expand = %q, want %q", got, want)
	}
	if d := cmp.Diff([]string{"echo 'x;' touch pwned", "rm -rf 'x;'"}, lines); d != "" {
		t.Errorf("lines Bash saw (-want +got):\n%s", d)
	}
	if got, want := c.Expand(context.Background(), "", Env{WorkDir: dir}), "A: (echo  was not run: nothing here runs a command's !`…` lines)"; !strings.HasPrefix(got, want) {
		t.Errorf("Expand without Bash = %q, want it to start with %q", got, want)
	}
}

// quoteArgs quotes each argument for where it stands in the line, so the
// shell reads it back unchanged and runs nothing of it.
func TestQuoteArgs(t *testing.T) {
	const evil = `a b; touch "p" $(id) 'q' \ ` + "`id`"
	for _, tc := range []struct{ name, line, args, want string }{
		{"plain word unchanged", "gh pr view $1", "12", "gh pr view 12"},
		{"unquoted ARGUMENTS split into quoted words", "git log $ARGUMENTS", "-n 3", "git log -n 3"},
		{"separator quoted", "echo $ARGUMENTS", "x; touch pwned", "echo 'x;' touch pwned"},
		{"missing positional is nothing", "echo $1$2", "a", "echo a"},
		{"inside double quotes escaped", `echo "$ARGUMENTS"`, `a"; touch p; "$x`, `echo "a\"; touch p; \"\$x"`},
		{"inside single quotes", `echo '$1'`, `it's`, `echo 'it'\''s'`},
		{"$( ) inside double quotes is unquoted", `echo "$(echo $1)"`, "x;y", `echo "$(echo 'x;y')"`},
		{"escaped quote stays", `echo \" $1`, "a;b", `echo \" 'a;b'`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := quoteArgs(tc.line, tc.args, strings.Fields(tc.args)); got != tc.want {
				t.Errorf("quoteArgs(%q, %q) = %q, want %q", tc.line, tc.args, got, tc.want)
			}
		})
	}
	// What sh prints is the argument, whatever it holds.
	dir := t.TempDir()
	for _, line := range []string{`printf %s "$ARGUMENTS"`, `printf %s '$ARGUMENTS'`, `printf %s "$(printf %s "$ARGUMENTS")"`} {
		out := shell(dir)(context.Background(), quoteArgs(line, evil, strings.Fields(evil)))
		if out != evil {
			t.Errorf("sh -c %s printed %q, want %q", line, out, evil)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("the arguments ran: %v", entries)
	}
}

// An @path the Read rules deny is not included; the prompt says so.
func TestExpandMentionDenied(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "secret.txt"), "hunter2\n")
	write(t, filepath.Join(dir, "open.txt"), "hello\n")
	env := Env{WorkDir: dir, Bash: shell(dir), DenyRead: func(p string) string {
		if filepath.Base(p) == "secret.txt" {
			return "deny rule Read(secret.txt)"
		}
		return ""
	}}
	c := Command{Name: "x", body: "See !`echo @secret.txt` and @open.txt"}
	want := "See @secret.txt and @open.txt\n\n(@secret.txt is not included: deny rule Read(secret.txt))\n\n<file path=\"open.txt\">\nhello\n</file>"
	if got := c.Expand(context.Background(), "", env); got != want {
		t.Errorf("Expand = %q, want %q", got, want)
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
