package permission

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// A deny rule matches every command the line would run, however it is
// spelt (Hardening III item 1): with Bash(rm:*) denied, each of these
// lines is refused.
func TestDenyEverySpelling(t *testing.T) {
	for _, line := range []string{
		"rm -rf x",
		"(rm -rf x)",
		"{ rm -rf x; }",
		"if true; then rm -rf x; fi",
		"echo $(rm -rf x)",
		"echo `rm -rf x`",
		"env rm -rf x",
		"command rm -rf x",
		"exec rm -rf x",
		"eval 'rm -rf x'",
		"time rm -rf x",
		"nice rm -rf x",
		"nice -n 5 rm -rf x",
		"bash -c 'rm -rf x'",
		"sh -c 'rm -rf x'",
		"zsh -c 'rm -rf x'",
		"X=1 rm -rf x",
		`\rm -rf x`,
		`"rm" -rf x`,
		"/bin/rm -rf x",
		"/usr/bin/rm -rf x",
		"echo x | xargs rm",
		"ls | rm -rf x",
		"ls | grep a | rm -rf x",
		"while true; do rm -rf x; done",
		"for f in a b; do rm -rf $f; done",
		"until false; do rm x; done",
		"case a in a) rm x;; esac",
		"true && rm -rf x",
		"false || rm -rf x",
		"ls; rm -rf x",
		"ls & rm -rf x",
		"sudo rm -rf x",
		"sudo -u x rm -rf x",
		"sudo -E -u root -- rm -rf x",
		"timeout 5 rm -rf x",
		"timeout -s KILL 5 rm -rf x",
		"nohup rm -rf x",
		"env -i A=1 rm -rf x",
		"env -u HOME rm x",
		"command -p rm -rf x",
		"exec -a x rm -rf x",
		`find . -exec rm {} \;`,
		"find . -execdir rm {} +",
		"find . -name '*.o' -ok rm {} ';'",
		"r''m -rf x",
		"$'rm' -rf x",
		`$'\x72m' -rf x`,
		"bash <<'EOF'\nrm -rf x\nEOF",
		"bash <<EOF\nrm -rf x\nEOF",
		"bash <<< 'rm -rf x'",
		"echo 'rm -rf x' | bash",
		"bash -lc 'rm -rf x'",
		"bash -e -c 'rm -rf x'",
		"bash -o pipefail -c 'rm -rf x'",
		`eval "$X"`,
		"$X -rf x",
		"${CMD} x",
		"$(echo rm) -rf x",
		"/bin/r? -rf x",
		"{rm,-rf,x}",
		"cat script | bash",
		`bash -c "$X"`,
		"sh -c 'bash -c \"rm -rf x\"'",
		"xargs sh -c 'rm \"$@\"' _",
		"cat <(rm -rf x)",
		"echo > >(rm -rf x)",
		"f() { rm -rf x; }; f",
		"! rm x",
		"coproc rm x",
		"trap 'rm -rf x' EXIT",
		"stdbuf -o0 rm x",
		"setsid rm x",
		"doas -u root rm x",
		"builtin command rm x",
		"A=$(rm x) true",
		"echo ${X:-$(rm x)}",
		"[[ $(rm x) ]]",
		"echo $((1 + $(rm x)))",
		"env -S 'rm -rf x'",
		"unparsable ( rm x",
	} {
		p := New(Config{Mode: Bypass, Rules: Rules{Deny: rules(t, "Bash(rm:*)")}, WorkDir: "/proj", Home: "/home/u"})
		if d := p.Decide(bash(line)); d.Verdict != Deny {
			t.Errorf("%q with Bash(rm:*) denied: %v (%s), want Deny", line, d.Verdict, d.Why)
		}
	}
}

// What only names rm, or runs something else, is not refused by it.
func TestDenyLeavesOthers(t *testing.T) {
	for _, line := range []string{
		"echo rm -rf x",
		"echo 'rm -rf x'",
		"grep rm file",
		"git rm x",
		"command -v rm",
		"rmdir x",
		"ls $HOME",
		"bash script.sh",
		"find . -name rm",
		"echo $(date)",
		"cat <<EOF\nrm -rf x\nEOF",
	} {
		p := New(Config{Mode: Bypass, Rules: Rules{Deny: rules(t, "Bash(rm:*)")}, WorkDir: "/proj", Home: "/home/u"})
		if d := p.Decide(bash(line)); d.Verdict != Allow {
			t.Errorf("%q with Bash(rm:*) denied: %v (%s), want Allow", line, d.Verdict, d.Why)
		}
	}
}

// An allow rule allows a line only when every command it runs is
// allowed; what cannot be resolved is allowed by no rule that names a
// command.
func TestAllowEveryCommand(t *testing.T) {
	for _, c := range []struct {
		allow, line string
		want        Verdict
	}{
		{"Bash(git status:*)", "git status", Allow},
		{"Bash(git status:*)", "git status -s", Allow},
		{"Bash(git status:*)", `"git" status`, Allow},
		{"Bash(git status:*)", "git status; rm x", Ask},
		{"Bash(git status:*)", "git status && rm x", Ask},
		{"Bash(git status:*)", "git status | rm x", Ask},
		{"Bash(git status:*)", "(git status; rm x)", Ask},
		{"Bash(git status:*)", "git status $(rm x)", Ask},
		{"Bash(git status:*), Bash(rm:*)", "git status $(rm x)", Allow},
		{"Bash(echo:*)", "echo $(make)", Ask},
		{"Bash(echo:*), Bash(make)", "echo $(make)", Allow},
		{"Bash(echo:*)", "echo `rm x`", Ask},
		{"Bash(echo:*)", "echo <(rm x)", Ask},
		{"Bash(git status:*)", "timeout 5 git status", Allow},
		{"Bash(git status:*)", "env git status", Allow},
		// Assignments can change what runs: an allow must cover them.
		{"Bash(git status:*)", "env A=1 git status", Ask},
		{"Bash(git status:*)", "GIT_EXTERNAL_DIFF=x git status", Ask},
		{"Bash(git status:*)", "PATH=/tmp/x:$PATH; git status", Ask},
		{"Bash(git status:*)", "export PATH=/tmp/x; git status", Ask},
		{"Bash(git status:*), Bash(export:*)", "export A=1; git status", Allow},
		{"Bash(CGO_ENABLED=0 go build:*)", "CGO_ENABLED=0 go build ./...", Allow},
		{"Bash(git status:*)", "bash -c 'git status'", Allow},
		{"Bash(git status:*)", "bash -c 'git status; rm x'", Ask},
		{"Bash(git status:*)", "sudo git status", Ask},
		{"Bash(git status:*), Bash(sudo:*)", "sudo git status", Allow},
		{"Bash(sudo:*)", "sudo rm x", Ask},
		{"Bash(find:*)", `find . -exec rm {} \;`, Ask},
		{"Bash(find:*), Bash(rm:*)", `find . -exec rm {} \;`, Allow},
		{"Bash(xargs:*), Bash(rm x)", "xargs rm x", Ask},
		{"Bash(xargs:*), Bash(rm:*)", "xargs rm x", Allow},
		{"Bash(rm:*)", "/tmp/evil/rm x", Ask},
		{"Bash(ls:*)", "$X", Ask},
		{"Bash(ls:*)", `eval "$X"`, Ask},
		{"Bash(ls:*)", "ls | bash", Ask},
		{"Bash", "$X", Allow},
		{"Bash($X)", "$X", Allow},
		{"Bash(make:*)", "make test 2>&1", Allow},
		{"Bash(make:*)", "make test > /dev/null 2>&1", Allow},
	} {
		p := New(Config{Rules: Rules{Allow: rules(t, c.allow)}, WorkDir: "/proj", Home: "/home/u"})
		if d := p.Decide(bash(c.line)); d.Verdict != c.want {
			t.Errorf("%q with allow %s: %v (%s), want %v", c.line, c.allow, d.Verdict, d.Why, c.want)
		}
	}
}

// An unresolvable line says so when it is refused or asked about.
func TestUnknownSaysWhy(t *testing.T) {
	p := New(Config{Mode: Bypass, Rules: Rules{Deny: rules(t, "Bash(rm:*)")}, WorkDir: "/proj"})
	d := p.Decide(bash(`eval "$X"`))
	want := `deny rule Bash(rm:*): the line runs code from an expansion (eval "$X"), which cannot be judged before it runs`
	if d.Why != want {
		t.Errorf("why = %q, want %q", d.Why, want)
	}
	d = p.Decide(bash("sudo /bin/rm -rf x"))
	if want := "deny rule Bash(rm:*): the line runs /bin/rm -rf x"; d.Why != want {
		t.Errorf("why = %q, want %q", d.Why, want)
	}
}

func TestAnalyzeShell(t *testing.T) {
	type cmd struct {
		Text          string
		Wrapper, More bool
	}
	for _, c := range []struct {
		line    string
		want    []cmd
		writes  []string
		unknown bool
	}{
		{line: "ls -la", want: []cmd{{Text: "ls -la"}}},
		{line: `sudo -u x \rm -r "a b"`, want: []cmd{{Text: "sudo -u x rm -r a b"}, {Text: "rm -r a b"}}},
		{line: "timeout 5 nice -n 1 ls", want: []cmd{{Text: "timeout 5 nice -n 1 ls", Wrapper: true}, {Text: "nice -n 1 ls", Wrapper: true}, {Text: "ls"}}},
		{line: "ls | xargs -n1 rm", want: []cmd{{Text: "ls"}, {Text: "xargs -n1 rm"}, {Text: "rm", More: true}}},
		{line: "echo hi >> ~/.bashrc 2>&1", want: []cmd{{Text: "echo hi"}}, writes: []string{"~/.bashrc"}},
		{line: "echo hi > $HOME/.profile", want: []cmd{{Text: "echo hi"}}, writes: []string{"~/.profile"}},
		{line: "echo hi &> out.log > /dev/null", want: []cmd{{Text: "echo hi"}}, writes: []string{"out.log"}},
		{line: "echo $(date) >&2", want: []cmd{{Text: "echo $(date)"}, {Text: "date"}}},
		{line: "$X", unknown: true},
		{line: "command -v rm", want: []cmd{{Text: "command -v rm"}}},
	} {
		l := analyzeShell(c.line)
		var got []cmd
		for _, sc := range l.cmds {
			got = append(got, cmd{Text: sc.text(), Wrapper: sc.wrapper, More: sc.moreArgs})
		}
		if d := cmp.Diff(c.want, got); d != "" {
			t.Errorf("analyzeShell(%q) commands (-want +got):\n%s", c.line, d)
		}
		if d := cmp.Diff(c.writes, l.writes); d != "" {
			t.Errorf("analyzeShell(%q) writes (-want +got):\n%s", c.line, d)
		}
		if (l.unknown != "") != c.unknown {
			t.Errorf("analyzeShell(%q) unknown = %q, want %v", c.line, l.unknown, c.unknown)
		}
	}
}

// A redirection into a file is a write, judged as the write tool's call
// of that file (Hardening III item 6): Bash(echo:*) does not allow
// `echo x >> ~/.bashrc`, and an Edit deny refuses it.
func TestRedirectionIsWrite(t *testing.T) {
	for _, c := range []struct {
		name        string
		mode        Mode
		allow, deny string
		line        string
		want        Verdict
	}{
		{name: "echo allow does not allow append to bashrc", allow: "Bash(echo:*)", line: "echo x >> ~/.bashrc", want: Ask},
		{name: "nor through $HOME", allow: "Bash(echo:*)", line: `echo x > "$HOME/.bashrc"`, want: Ask},
		{name: "nor to an unknown file", allow: "Bash(echo:*), Edit", line: "echo x > $F", want: Ask},
		{name: "with an Edit allow of the file", allow: "Bash(echo:*), Edit(~/.bashrc)", line: "echo x >> ~/.bashrc", want: Allow},
		{name: "Edit deny refuses the redirection", mode: Bypass, deny: "Edit(~/.bashrc)", line: "echo x >> ~/.bashrc", want: Deny},
		{name: "Write deny too", mode: Bypass, deny: "Write(.env)", line: "cat a &> .env", want: Deny},
		{name: "deny of a project path", mode: Bypass, deny: "Edit(secrets/**)", line: "(echo x > secrets/k)", want: Deny},
		{name: "unknown target meets an Edit deny", mode: Bypass, deny: "Edit(secrets/**)", line: "echo x > $F", want: Deny},
		{name: "other files stay", mode: Bypass, deny: "Edit(~/.bashrc)", line: "echo x >> notes.txt", want: Allow},
		{name: "acceptEdits writes in the project", mode: AcceptEdits, allow: "Bash(echo:*)", line: "echo x > out.txt", want: Allow},
		{name: "acceptEdits not outside it", mode: AcceptEdits, allow: "Bash(echo:*)", line: "echo x > /etc/hosts", want: Ask},
		{name: "dev null is no write", allow: "Bash(make:*)", line: "make > /dev/null 2>&1", want: Allow},
		{name: "the exact line allows its redirection", allow: "Bash(echo x >> ~/.bashrc)", line: "echo x >> ~/.bashrc", want: Allow},
		{name: "here-string is no write", allow: "Bash(cat:*)", line: "cat <<< hi", want: Allow},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := New(Config{Mode: c.mode, Rules: Rules{Allow: rules(t, c.allow), Deny: rules(t, c.deny)}, WorkDir: t.TempDir(), Home: "/home/u"})
			if d := p.Decide(bash(c.line)); d.Verdict != c.want {
				t.Errorf("%q: %v (%s), want %v", c.line, d.Verdict, d.Why, c.want)
			}
		})
	}
}

// A suggested rule allows the call and never a different, destructive
// form of it (Hardening III item 6): after a plain find, not
// Bash(find:*), which would allow find -delete.
func TestSuggestNarrow(t *testing.T) {
	for _, c := range []struct {
		line, want string
		notAllowed []string
	}{
		{"find . -name '*.go'", "Bash(find . -name '*.go')", []string{"find . -delete", `find . -exec rm {} \;`, "find . -name '*.go' -delete"}},
		{"sed -n 1p a.txt", "Bash(sed -n 1p a.txt)", []string{"sed -i s/a/b/ a.txt"}},
		{"rm build.log", "Bash(rm build.log)", []string{"rm -rf ~"}},
		{"echo hi > out.txt", "Bash(echo hi > out.txt)", []string{"echo hi > ~/.bashrc"}},
		{"ls -la", "Bash(ls:*)", []string{"ls; rm x", "ls $(rm x)", "ls > ~/.bashrc"}},
		{"git -C sub push", "Bash(git -C sub push)", []string{"git -C sub push --force"}},
		{"git status", "Bash(git status:*)", []string{"git push"}},
		{"sudo ls", "Bash(sudo ls)", []string{"sudo rm x"}},
		{`eval "$X"`, `Bash(eval "$X")`, nil},
	} {
		got := Suggest(bash(c.line), "/proj")
		if got != c.want {
			t.Errorf("Suggest(%q) = %q, want %q", c.line, got, c.want)
		}
		r, err := ParseRule(got)
		if err != nil {
			t.Errorf("suggested %q does not parse: %v", got, err)
			continue
		}
		p := New(Config{WorkDir: "/proj", Home: "/home/u", Rules: Rules{Allow: []Rule{r}}})
		if d := p.Decide(bash(c.line)); d.Verdict != Allow {
			t.Errorf("suggested %q does not allow %q: %s", got, c.line, d.Why)
		}
		for _, other := range c.notAllowed {
			if d := p.Decide(bash(other)); d.Verdict == Allow {
				t.Errorf("suggested %q (for %q) allows %q", got, c.line, other)
			}
		}
	}
}

// BenchmarkDecideBash is the hot path: every bash call is judged against
// the session's rules.
func BenchmarkDecideBash(b *testing.B) {
	rs, err := ParseRules("Bash(git status:*), Bash(git diff:*), Bash(go test:*), Bash(go build:*), Bash(ls:*), Bash(cat:*), Bash(grep:*), Edit(docs/**)")
	if err != nil {
		b.Fatal(err)
	}
	deny, _ := ParseRules("Bash(rm:*), Bash(git push:*)")
	p := New(Config{Rules: Rules{Allow: rs, Deny: deny}, WorkDir: "/proj", Home: "/home/u"})
	// Two lines in turn, so that each Decide parses its line (the last
	// line parsed is kept: parsedShell).
	calls := []Call{
		bash(`cd internal/permission && go test -run 'TestDecide' ./... 2>&1 | grep -v "^ok" | head -50`),
		bash(`cd internal/permission && go test -run 'TestCovers' ./... 2>&1 | grep -v "^ok" | head -50`),
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		p.Decide(calls[i%2])
		i++
	}
}

// BenchmarkDecideAndHookFilters is one bash call as a session with two
// Claude hooks filtered by `if` judges it: Policy.Decide, then each
// filter's Rule.Covers. They share the line's parse.
func BenchmarkDecideAndHookFilters(b *testing.B) {
	rs, _ := ParseRules("Bash(git status:*), Bash(go test:*), Edit(docs/**)")
	p := New(Config{Rules: Rules{Allow: rs}, WorkDir: "/proj", Home: "/home/u"})
	filters, _ := ParseRules("Bash(git push:*), Bash(rm:*)")
	calls := []Call{
		bash(`cd internal/permission && go test -run 'TestDecide' ./... 2>&1 | grep -v "^ok" | head -50`),
		bash(`cd internal/permission && go test -run 'TestCovers' ./... 2>&1 | grep -v "^ok" | head -50`),
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		c := calls[i%2]
		i++
		p.Decide(c)
		for _, f := range filters {
			f.Covers(c, "/proj", "/home/u")
		}
	}
}

// The line kept by parsedShell is the line asked for: the same analysis
// as a fresh parse, for a line asked again and for one asked after
// another.
func TestParsedShellIsTheLinesOwn(t *testing.T) {
	lines := []string{"git status", "rm -rf x > out", "git status", "git status", "echo $X | sh"}
	for _, l := range lines {
		if d := cmp.Diff(analyzeShell(l), parsedShell(l), cmp.AllowUnexported(shellLine{}, shellCmd{})); d != "" {
			t.Errorf("parsedShell(%q) (-fresh +kept):\n%s", l, d)
		}
	}
	if parsedShell("ls") != parsedShell("ls") {
		t.Error("a line asked twice in a row was parsed twice")
	}
}

// FuzzAnalyzeShell: no line makes the analysis panic, and a line it
// cannot judge never comes out allowed by a rule naming a command.
func FuzzAnalyzeShell(f *testing.F) {
	for _, s := range []string{"rm -rf x", "$'%s%d\\x' a", "bash -c", "find -exec", "sudo", "env -S", "timeout", "xargs", "eval", "trap x",
		"bash <<EOF\nEOF", "sh -c 'sh -c \"sh -c rm\"'", "echo > $F", "a | b | bash", "cat <<< $X | sh", "exec", "command -v", "{ x; } > >(y)"} {
		f.Add(s)
	}
	p := New(Config{Rules: Rules{Allow: []Rule{{Tool: "Bash", Spec: "ls:*", Text: "Bash(ls:*)"}}}, WorkDir: "/proj", Home: "/home/u"})
	f.Fuzz(func(t *testing.T, line string) {
		l := analyzeShell(line)
		if l.unknown != "" && line != "" {
			if d := p.Decide(bash(line)); d.Verdict == Allow {
				t.Errorf("%q: unknown (%s) but allowed by %s", line, l.unknown, d.Why)
			}
		}
	})
}
