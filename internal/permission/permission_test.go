package permission

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseRule(t *testing.T) {
	for _, tc := range []struct {
		in      string
		want    Rule
		wantErr string
	}{
		{in: "Bash", want: Rule{Tool: "Bash", Text: "Bash"}},
		{in: "Bash(*)", want: Rule{Tool: "Bash", Text: "Bash(*)"}},
		{in: " Bash(git status:*) ", want: Rule{Tool: "Bash", Spec: "git status:*", Text: "Bash(git status:*)"}},
		{in: "Edit(docs/**)", want: Rule{Tool: "Edit", Spec: "docs/**", Text: "Edit(docs/**)"}},
		{in: "mcp__server__tool", want: Rule{Tool: "mcp__server__tool", Text: "mcp__server__tool"}},
		{in: "hello-ext:hello", want: Rule{Tool: "hello-ext:hello", Text: "hello-ext:hello"}},
		{in: "WebFetch(domain:example.com)", want: Rule{Tool: "WebFetch", Spec: "domain:example.com", Text: "WebFetch(domain:example.com)"}},
		{in: "WebFetch(example.com)", wantErr: "WebFetch takes domain:HOST in parentheses"},
		{in: "Bash(git status", wantErr: "without a closing )"},
		{in: "Bash)", wantErr: "without a ("},
		{in: "Bash()", wantErr: "empty parentheses"},
		{in: "(ls)", wantErr: "names no tool"},
		{in: "Ba sh", wantErr: "is not a tool name"},
		{in: "mcp__*__x", wantErr: "may only end"},
		{in: "hello-ext_hello(x)", wantErr: "only Bash, Read, Edit, Write"},
		{in: "", wantErr: "empty rule"},
	} {
		got, err := ParseRule(tc.in)
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("ParseRule(%q) error = %v, want it to contain %q", tc.in, err, tc.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("ParseRule(%q): %v", tc.in, err)
			continue
		}
		if d := cmp.Diff(tc.want, got); d != "" {
			t.Errorf("ParseRule(%q) (-want +got):\n%s", tc.in, d)
		}
	}
}

func TestSplitRules(t *testing.T) {
	for in, want := range map[string][]string{
		"Bash(git log:*), Edit":               {"Bash(git log:*)", "Edit"},
		"Bash(git log:*) Edit":                {"Bash(git log:*)", "Edit"},
		`["Bash(echo a, b)", "Read"]`:         {"Bash(echo a, b)", "Read"},
		"  ":                                  nil,
		"mcp__a__b,mcp__c\tBash(npm run x:*)": {"mcp__a__b", "mcp__c", "Bash(npm run x:*)"},
	} {
		if d := cmp.Diff(want, SplitRules(in)); d != "" {
			t.Errorf("SplitRules(%q) (-want +got):\n%s", in, d)
		}
	}
}

func TestParseMode(t *testing.T) {
	for in, want := range map[string]Mode{"default": Default, "acceptEdits": AcceptEdits, "accept-edits": AcceptEdits, "PLAN": Plan, "bypassPermissions": Bypass, "bypass": Bypass} {
		if got, err := ParseMode(in); err != nil || got != want {
			t.Errorf("ParseMode(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := ParseMode("yolo"); err == nil || !strings.Contains(err.Error(), "use default, acceptEdits, plan or bypassPermissions") {
		t.Errorf("ParseMode(yolo) error = %v", err)
	}
}

func bash(cmd string) Call {
	in, _ := json.Marshal(map[string]string{"command": cmd})
	return Call{Name: "bash", RuntimeName: "bash", Builtin: true, Input: in}
}

func file(tool, path string) Call {
	in, _ := json.Marshal(map[string]string{"path": path})
	return Call{Name: tool, RuntimeName: tool, Builtin: true, ReadOnly: tool == "read" || tool == "grep" || tool == "find" || tool == "ls", Input: in}
}

func fetch(u string) Call {
	in, _ := json.Marshal(map[string]string{"url": u, "prompt": "p"})
	return Call{Name: "web_fetch", RuntimeName: "web_fetch", Builtin: true, Input: in}
}

func ext(name, runtime string, readOnly bool) Call {
	return Call{Name: name, RuntimeName: runtime, ReadOnly: readOnly, Input: json.RawMessage(`{}`)}
}

func rules(t *testing.T, list string) []Rule {
	t.Helper()
	r, err := ParseRules(list)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestDecide(t *testing.T) {
	type tc struct {
		name             string
		mode             Mode
		allow, ask, deny string
		call             Call
		want             Verdict
		wantWhy          string
	}
	for _, c := range []tc{
		// Modes, no rules.
		{name: "default asks bash", call: bash("make"), want: Ask, wantWhy: "default mode asks before bash"},
		{name: "default asks write", call: file("write", "a.txt"), want: Ask},
		{name: "default runs read", call: file("read", "a.txt"), want: Allow, wantWhy: "read-only tool"},
		{name: "default asks mutating extension tool", call: ext("x_t", "x:t", false), want: Ask},
		{name: "default runs read-only extension tool", call: ext("x_t", "x:t", true), want: Allow},
		{name: "acceptEdits runs edit in project", mode: AcceptEdits, call: file("edit", "docs/a.md"), want: Allow, wantWhy: "acceptEdits mode"},
		{name: "acceptEdits asks edit outside project", mode: AcceptEdits, call: file("write", "/etc/passwd"), want: Ask},
		{name: "acceptEdits asks edit escaping with ..", mode: AcceptEdits, call: file("write", "../other/a"), want: Ask},
		{name: "acceptEdits asks bash", mode: AcceptEdits, call: bash("make"), want: Ask},
		{name: "plan refuses bash", mode: Plan, call: bash("make"), want: Deny, wantWhy: "plan mode is read-only"},
		{name: "plan runs read-only bash", mode: Plan, call: bash("ls -la"), want: Allow, wantWhy: "read-only command"},
		{name: "plan refuses write even when allowed", mode: Plan, allow: "Write", call: file("write", "a"), want: Deny},
		{name: "plan runs read", mode: Plan, call: file("grep", ""), want: Allow},
		{name: "bypass runs bash", mode: Bypass, call: bash("rm -rf build"), want: Allow},
		{name: "bypass still denies", mode: Bypass, deny: "Bash(rm:*)", call: bash("rm -rf build"), want: Deny, wantWhy: "deny rule Bash(rm:*)"},

		// Bash rules.
		{name: "prefix rule", allow: "Bash(git status:*)", call: bash("git status -s"), want: Allow, wantWhy: "allow rule Bash(git status:*)"},
		{name: "prefix rule exact", allow: "Bash(git status:*)", call: bash("git status"), want: Allow},
		{name: "prefix at word boundary", allow: "Bash(git status:*)", call: bash("git statusx"), want: Ask},
		{name: "compound needs every part", allow: "Bash(git status:*)", call: bash("git status && rm -rf ~"), want: Ask},
		{name: "compound all parts allowed", allow: "Bash(git status:*), Bash(git diff:*)", call: bash("git status; git diff | less"), want: Ask},
		{name: "compound all parts allowed 2", allow: "Bash(git status:*), Bash(git diff:*), Bash(less)", call: bash("git status; git diff | less"), want: Allow},
		{name: "redirect 2>&1 is not a separator", allow: "Bash(make:*)", call: bash("make test 2>&1"), want: Allow},
		{name: "substitution defeats prefix", allow: "Bash(echo:*)", call: bash("echo $(rm -rf x)"), want: Ask},
		{name: "quoted separator stays", allow: "Bash(echo:*)", call: bash("echo 'a; rm -rf x'"), want: Allow},
		{name: "exact rule", allow: "Bash(npm run test)", call: bash("npm run test"), want: Allow},
		{name: "exact rule no prefix", allow: "Bash(npm run test)", call: bash("npm run test --watch"), want: Ask},
		{name: "wildcard rule", allow: "Bash(git * --dry-run)", call: bash("git push origin --dry-run"), want: Allow},
		{name: "Bash allows all", allow: "Bash", call: bash("echo $(date) && ls"), want: Allow},
		{name: "deny any part", allow: "Bash", deny: "Bash(rm:*)", call: bash("ls && rm -rf x"), want: Deny},
		{name: "ask rule beats allow", allow: "Bash", ask: "Bash(git push:*)", call: bash("git push"), want: Ask, wantWhy: "ask rule Bash(git push:*)"},
		{name: "synaps name rule", allow: "bash(ls:*)", call: bash("ls -la"), want: Allow},

		// Path rules.
		{name: "Edit covers write", allow: "Edit(docs/**)", call: file("write", "docs/a/b.md"), want: Allow},
		{name: "Edit pattern outside", allow: "Edit(docs/**)", call: file("write", "src/a.go"), want: Ask},
		{name: "Edit absolute path in docs", allow: "Edit(docs/**)", call: file("edit", "/proj/docs/x.md"), want: Allow},
		{name: "Edit star in one dir", allow: "Edit(*.md)", call: file("edit", "README.md"), want: Allow},
		{name: "Edit star not deeper", allow: "Edit(*.md)", call: file("edit", "docs/README.md"), want: Ask},
		{name: "Write covers only write", allow: "Write", call: file("edit", "a"), want: Ask},
		{name: "dir pattern covers children", allow: "Edit(docs)", call: file("edit", "docs/x/y"), want: Allow},
		{name: "double slash absolute", allow: "Edit(//tmp/**)", call: file("write", "/tmp/x"), want: Allow},
		{name: "home pattern", allow: "Edit(~/notes/**)", call: file("write", "~/notes/a.txt"), want: Allow},
		{name: "Read deny", deny: "Read(.env)", call: file("read", ".env"), want: Deny},
		{name: "Read deny covers grep", deny: "Read(secrets/**)", call: file("grep", "secrets/k"), want: Deny},

		// Other tools.
		{name: "extension model name", allow: "x_t", call: ext("x_t", "x:t", false), want: Allow},
		{name: "extension runtime name", allow: "x:t", call: ext("x_t", "x:t", false), want: Allow},
		{name: "mcp server", allow: "mcp__fs", call: ext("mcp__fs__write_file", "mcp__fs__write_file", false), want: Allow},
		{name: "mcp server star", allow: "mcp__fs__*", call: ext("mcp__fs__write_file", "", false), want: Allow},
		{name: "mcp other server", allow: "mcp__fs", call: ext("mcp__fsx__write", "", false), want: Ask},
		{name: "Claude name does not cover extension", allow: "Bash", call: ext("bash_2", "x:bash", false), want: Ask},
		{name: "deny read-only extension tool", deny: "x_t", call: ext("x_t", "x:t", true), want: Deny},
		{name: "WebFetch rule does not cover bash", allow: "WebFetch(domain:x)", call: bash("make"), want: Ask},
		{name: "WebFetch covers web_fetch", allow: "WebFetch", call: fetch("https://a.example/x"), want: Allow},
		{name: "WebFetch domain", allow: "WebFetch(domain:a.example)", call: fetch("https://A.example/x"), want: Allow},
		{name: "WebFetch other domain", allow: "WebFetch(domain:a.example)", call: fetch("https://b.example/x"), want: Ask},
		{name: "WebFetch star domain", allow: "WebFetch(domain:*.example)", call: fetch("https://docs.a.example/"), want: Allow},
		{name: "WebFetch domain deny", deny: "WebFetch(domain:evil.example)", call: fetch("http://evil.example:8080/"), want: Deny},
		{name: "TodoWrite deny", deny: "TodoWrite", call: Call{Name: "todo_write", RuntimeName: "todo_write", Builtin: true, ReadOnly: true, Input: json.RawMessage(`{}`)}, want: Deny},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := New(Config{Mode: c.mode, Rules: Rules{Allow: rules(t, c.allow), Ask: rules(t, c.ask), Deny: rules(t, c.deny)}, WorkDir: "/proj", Home: "/home/u"})
			d := p.Decide(c.call)
			if d.Verdict != c.want {
				t.Errorf("verdict = %v (%s), want %v", d.Verdict, d.Why, c.want)
			}
			if c.wantWhy != "" && d.Why != c.wantWhy {
				t.Errorf("why = %q, want %q", d.Why, c.wantWhy)
			}
		})
	}
}

func TestCycle(t *testing.T) {
	p := New(Config{WorkDir: "/p"})
	var got []Mode
	for range 4 {
		got = append(got, p.Cycle())
	}
	if d := cmp.Diff([]Mode{AcceptEdits, Plan, Default, AcceptEdits}, got); d != "" {
		t.Errorf("cycle from default (-want +got):\n%s", d)
	}
	p = New(Config{Mode: Bypass, WorkDir: "/p"})
	got = nil
	for range 4 {
		got = append(got, p.Cycle())
	}
	if d := cmp.Diff([]Mode{Default, AcceptEdits, Plan, Bypass}, got); d != "" {
		t.Errorf("cycle from bypass (-want +got):\n%s", d)
	}
}

func TestSuggest(t *testing.T) {
	for _, c := range []struct {
		call Call
		want string
	}{
		{bash("git status -s"), "Bash(git status:*)"},
		{bash("ls -la"), "Bash(ls:*)"},
		{bash("rm -rf build && ls"), "Bash(rm -rf build && ls)"},
		{bash("go test ./..."), "Bash(go test:*)"},
		{file("write", "docs/a.md"), "Edit(docs/a.md)"},
		{file("edit", "/etc/hosts"), "Edit(//etc/hosts)"},
		{ext("x_t", "x:t", false), "x_t"},
	} {
		if got := Suggest(c.call, "/proj"); got != c.want {
			t.Errorf("Suggest(%s) = %q, want %q", c.call.Input, got, c.want)
		}
		// What is suggested parses and allows the call.
		r, err := ParseRule(c.want)
		if err != nil {
			t.Errorf("suggested %q does not parse: %v", c.want, err)
			continue
		}
		p := New(Config{WorkDir: "/proj", Rules: Rules{Allow: []Rule{r}}})
		if d := p.Decide(c.call); d.Verdict != Allow {
			t.Errorf("suggested %q does not allow %s: %s", c.want, c.call.Input, d.Why)
		}
	}
}

// acceptEdits accepts edits inside the project only: a link in the
// project that points outside it does not count as inside.
func TestAcceptEditsThroughSymlink(t *testing.T) {
	proj, outside := t.TempDir(), t.TempDir()
	if err := os.Symlink(outside, filepath.Join(proj, "out")); err != nil {
		t.Skip(err)
	}
	os.MkdirAll(filepath.Join(proj, "src"), 0o755)
	p := New(Config{Mode: AcceptEdits, WorkDir: proj})
	for path, want := range map[string]Verdict{"src/a.go": Allow, "new/dir/a.go": Allow, "out/a.txt": Ask, "out/new/a.txt": Ask} {
		if d := p.Decide(file("write", path)); d.Verdict != want {
			t.Errorf("write %s: %v (%s), want %v", path, d.Verdict, d.Why, want)
		}
	}
}
