package permission

import "testing"

// TestReadOnlyCommands: default mode runs a bash line without asking
// when every command it runs only reads (docs/permissions.md lists
// them) and it writes no file; anything else is asked (issue 36, item 1).
func TestReadOnlyCommands(t *testing.T) {
	for _, c := range []struct {
		line     string
		readOnly bool
	}{
		// Read-only.
		{"git status", true},
		{"git status -s", true},
		{"git log --oneline -5", true},
		{"git diff HEAD~1 -- a.go", true},
		{"git show HEAD:README.md", true},
		{"git -C sub --no-pager log", true},
		{"git branch", true},
		{"git branch -a -v", true},
		{"git tag -l 'v1.*'", true},
		{"git config --get user.name", true},
		{"ls -la", true},
		{"cat a.txt | head -20", true},
		{"tail -n 5 log.txt", true},
		{"wc -l *.go", true},
		{"grep -rn TODO . | sort | uniq -c", true},
		{"rg -n foo", true},
		{"find . -name '*.go' -type f", true},
		{"seq 3 | sed -n 2p", true},
		{"seq 10 | sed -e 's/1/one/g' -e '3d'", true},
		{"sed -n '1,5p;/^func/p' a.go", true},
		{"printf '%s\\n' a b", true},
		{"echo hi", true},
		{"pwd && which go", true},
		{"echo $(git rev-parse HEAD)", true},
		{"ls > /dev/null 2>&1", true},
		{"diff <(sort a) <(sort b)", true},
		{"timeout 5 git status", true},
		{"bash -c 'git status; ls'", true},
		{"find . -name '*.go' | xargs grep -l foo", true},
		{"date +%Y-%m-%d", true},
		{"jq .name package.json", true},
		{"cd sub && ls", true},
		// Not read-only.
		{"find . -name '*.tmp' -delete", false},
		{"find . -exec rm {} \\;", false},
		{"find . -fprint out.txt", false},
		{"sed -i s/a/b/ a.txt", false},
		{"sed --in-place=.bak s/a/b/ a.txt", false},
		{"sed -ni p a.txt", false},
		{"sed 's/a/b/w out.txt' a.txt", false},
		{"sed 's/.*/date/e' a.txt", false},
		{"sed '1r /etc/passwd' a.txt", false},
		{"sed -f script.sed a.txt", false},
		{"git push", false},
		{"git commit -m x", false},
		{"git checkout main", false},
		{"git branch new-feature", false},
		{"git branch -D old", false},
		{"git tag v2", false},
		{"git stash", false},
		{"git config user.name x", false},
		{"git -c core.pager=evil log", false},
		{"git diff --output=patch.txt", false},
		{"git log --outp=x", false},
		{"git grep -O foo", false},
		{"echo hi > out.txt", false},
		{"cat a >> b", false},
		{"ls 2> err.txt", false},
		{"echo $(rm -rf x)", false},
		{"ls; rm -rf build", false},
		{"cat a | tee b", false},
		{"sort -o sorted.txt a", false},
		{"sort -uo sorted.txt a", false},
		{"uniq in.txt out.txt", false},
		{"rg --pre ./evil foo", false},
		{"find . $X", false},
		{"find *", false},
		{"xargs find .", false},
		{"PATH=/tmp/x ls", false},
		{"X=1; ls", false},
		{"f() { ls; }; f", false},
		{"./ls", false},
		{"/tmp/x/cat a", false},
		{"$CMD", false},
		{"sudo cat /etc/shadow", false},
		{"time -o t.txt ls", false},
		{"date -s 2020-01-01", false},
		{"bash script.sh", false},
		{"curl -s example.com", false},
		{"python3 -c 'print(1)'", false},
		{"awk '{print}' a", false},
		{"cat < /dev/tcp/example.com/80", false},
		{"exec 3<>/dev/tcp/example.com/80", false},
	} {
		p := New(Config{WorkDir: "/proj", Home: "/home/u"})
		d := p.Decide(bash(c.line))
		want := Ask
		if c.readOnly {
			want = Allow
		}
		if d.Verdict != want {
			t.Errorf("%q: %v (%s), want %v", c.line, d.Verdict, d.Why, want)
		}
	}
}

// TestReadOnlyKeepsRules: deny and ask rules are judged before the
// read-only classification, which only replaces the question.
func TestReadOnlyKeepsRules(t *testing.T) {
	for _, c := range []struct {
		deny, ask, line string
		want            Verdict
	}{
		{deny: "Bash(cat:*)", line: "cat a.txt", want: Deny},
		{deny: "Read(.env)", line: "ls", want: Allow},
		{deny: "Read(.env)", line: "cat README.md", want: Allow},
		{deny: "Read(.env)", line: "cat .env", want: Ask},
		{deny: "Read(.env)", line: "head -5 ./.env", want: Ask},
		{deny: "Read(.env)", line: "grep -r KEY .", want: Ask},
		{deny: "Read(.env)", line: "cat .e*", want: Ask},
		{deny: "Read(.env)", line: "git show HEAD:.env", want: Ask},
		{deny: "Read(.env)", line: "git status", want: Allow},
		{deny: "Read(.env)", line: "rg KEY", want: Ask},
		{ask: "Bash(git log:*)", line: "git log", want: Ask},
		{ask: "Bash(git log:*)", line: "git status", want: Allow},
	} {
		p := New(Config{Rules: Rules{Deny: rules(t, c.deny), Ask: rules(t, c.ask)}, WorkDir: "/proj", Home: "/home/u"})
		if d := p.Decide(bash(c.line)); d.Verdict != c.want {
			t.Errorf("%q with deny %q ask %q: %v (%s), want %v", c.line, c.deny, c.ask, d.Verdict, d.Why, c.want)
		}
	}
}

// TestSandboxedAutoAllow: with SetSandboxed(true) a bash command runs
// without a question in default and acceptEdits; deny and ask rules
// still hold and plan mode still refuses.
func TestSandboxedAutoAllow(t *testing.T) {
	for _, c := range []struct {
		mode      Mode
		deny, ask string
		sandboxed bool
		want      Verdict
	}{
		{mode: Default, sandboxed: false, want: Ask},
		{mode: Default, sandboxed: true, want: Allow},
		{mode: AcceptEdits, sandboxed: true, want: Allow},
		{mode: Plan, sandboxed: true, want: Deny},
		{mode: Default, sandboxed: true, deny: "Bash(make:*)", want: Deny},
		{mode: Default, sandboxed: true, ask: "Bash(make:*)", want: Ask},
	} {
		p := New(Config{Mode: c.mode, Rules: Rules{Deny: rules(t, c.deny), Ask: rules(t, c.ask)}, WorkDir: "/proj", Home: "/home/u"})
		p.SetSandboxed(c.sandboxed)
		if d := p.Decide(bash("make install")); d.Verdict != c.want {
			t.Errorf("%+v: %v (%s), want %v", c, d.Verdict, d.Why, c.want)
		}
		if c.sandboxed && c.want == Allow {
			if d := p.Decide(file("write", "a.txt")); d.Verdict == Allow && c.mode == Default {
				t.Errorf("%+v: the sandbox allowed a write tool call", c)
			}
		}
	}
}

// BenchmarkDecideReadOnly: the classification runs on every bash call
// that no rule decided; it adds a walk of the parsed line to Decide.
func BenchmarkDecideReadOnly(b *testing.B) {
	p := New(Config{WorkDir: "/proj", Home: "/home/u"})
	c := bash("git log --oneline -5 | grep -v wip | sed -n '1,3p' && ls -la > /dev/null")
	for b.Loop() {
		if p.Decide(c).Verdict != Allow {
			b.Fatal("not read-only")
		}
	}
}
