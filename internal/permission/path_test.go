package permission

import (
	"os"
	"path/filepath"
	"testing"
)

// linkedTree makes a home with ~/.aws/credentials and ~/.bashrc, and a
// project that ships links to them (aws -> ~/.aws, docs/x -> ~/.bashrc)
// beside a real docs/real.md; it returns the project and the home, and a
// second name of the project reached through a link.
func linkedTree(t *testing.T) (proj, home, linkedProj string) {
	t.Helper()
	root := t.TempDir()
	home, proj = filepath.Join(root, "home"), filepath.Join(root, "proj")
	for _, d := range []string{filepath.Join(home, ".aws"), filepath.Join(proj, "docs")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{filepath.Join(home, ".aws", "credentials"), filepath.Join(home, ".bashrc"), filepath.Join(proj, "docs", "real.md")} {
		if err := os.WriteFile(f, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	linkedProj = filepath.Join(root, "linked")
	for link, target := range map[string]string{
		filepath.Join(proj, "aws"):         filepath.Join(home, ".aws"),
		filepath.Join(proj, "docs", "x"):   filepath.Join(home, ".bashrc"),
		filepath.Join(proj, "docs", "new"): filepath.Join(home, "made-by-link"),
		linkedProj:                         proj,
	} {
		if err := os.Symlink(target, link); err != nil {
			t.Skip(err)
		}
	}
	return proj, home, linkedProj
}

// Path rules are judged on the real path too: deny and ask rules when
// either path matches, allow rules only when both do.
func TestPathRulesThroughLinks(t *testing.T) {
	proj, home, linked := linkedTree(t)
	for _, c := range []struct {
		name             string
		work             string // default proj
		allow, ask, deny string
		call             Call
		want             Verdict
	}{
		{name: "read deny reaches a link's target", deny: "Read(~/.aws/**)", call: file("read", "aws/credentials"), want: Deny},
		{name: "read deny covers grep of the linked dir's files", deny: "Read(~/.aws/**)", call: file("grep", "aws/credentials"), want: Deny},
		{name: "edit deny reaches a link's target", deny: "Edit(~/.bashrc)", call: file("edit", "docs/x"), want: Deny},
		{name: "ask rule reaches a link's target", ask: "Read(~/.aws/**)", call: file("read", "aws/credentials"), want: Ask},
		{name: "deny on the written path still holds", deny: "Read(aws/**)", call: file("read", "aws/credentials"), want: Deny},
		{name: "allow does not reach a link's target", allow: "Edit(docs/**)", call: file("edit", "docs/x"), want: Ask},
		{name: "allow does not reach a new file through a link", allow: "Edit(docs/**)", call: file("write", "docs/new"), want: Ask},
		{name: "allow needs the written path too", allow: "Edit(~/.bashrc)", call: file("edit", "docs/x"), want: Ask},
		{name: "allow rule with both paths", allow: "Edit(~/.bashrc), Edit(docs/**)", call: file("edit", "docs/x"), want: Ask},
		{name: "allow of a real file", allow: "Edit(docs/**)", call: file("edit", "docs/real.md"), want: Allow},
		{name: "allow of a file not yet made", allow: "Edit(docs/**)", call: file("write", "docs/sub/new.md"), want: Allow},
		{name: "project through a link keeps its rules", work: linked, allow: "Edit(docs/**)", call: file("edit", "docs/real.md"), want: Allow},
		{name: "project through a link keeps deny", work: linked, deny: "Read(~/.aws/**)", call: file("read", "aws/credentials"), want: Deny},
		{name: "home rule by the home's path", allow: "Edit(~/.bashrc)", call: file("edit", filepath.Join(home, ".bashrc")), want: Allow},
	} {
		t.Run(c.name, func(t *testing.T) {
			work := c.work
			if work == "" {
				work = proj
			}
			p := New(Config{Rules: Rules{Allow: rules(t, c.allow), Ask: rules(t, c.ask), Deny: rules(t, c.deny)}, WorkDir: work, Home: home})
			if d := p.Decide(c.call); d.Verdict != c.want {
				t.Errorf("verdict = %v (%s), want %v", d.Verdict, d.Why, c.want)
			}
		})
	}
}

// DenyRead judges each file a walk reaches by Read deny rules, on the
// written and the real path; other rules do not count.
func TestDenyRead(t *testing.T) {
	proj, home, _ := linkedTree(t)
	p := New(Config{Rules: Rules{
		Allow: rules(t, "Read(aws/**)"),
		Ask:   rules(t, "Read(docs/**)"),
		Deny:  rules(t, "Read(~/.aws/**), Edit(~/.bashrc), Read(secrets)"),
	}, WorkDir: proj, Home: home})
	for path, want := range map[string]string{
		filepath.Join(proj, "aws", "credentials"):     "deny rule Read(~/.aws/**)",
		filepath.Join(home, ".aws", "credentials"):    "deny rule Read(~/.aws/**)",
		filepath.Join(proj, "docs", "x"):              "", // an Edit deny: reading is not denied
		filepath.Join(proj, "docs", "real.md"):        "", // an ask rule: the call was asked already
		filepath.Join(proj, "secrets", "deep", "key"): "deny rule Read(secrets)",
		filepath.Join(proj, "secrets"):                "deny rule Read(secrets)",
		"aws/credentials":                             "deny rule Read(~/.aws/**)",
	} {
		if got := p.DenyRead(path); got != want {
			t.Errorf("DenyRead(%s) = %q, want %q", path, got, want)
		}
	}
	if got := New(Config{WorkDir: proj, Home: home}).DenyRead(filepath.Join(proj, "aws", "credentials")); got != "" {
		t.Errorf("DenyRead without rules = %q", got)
	}
}

// BenchmarkDenyReads is the per-file check of a walk: with three Read
// deny rules, each file's written and real path are matched.
func BenchmarkDenyReads(b *testing.B) {
	proj := b.TempDir()
	os.MkdirAll(filepath.Join(proj, "src", "pkg"), 0o755)
	f := filepath.Join(proj, "src", "pkg", "a.go")
	os.WriteFile(f, nil, 0o644)
	r, _ := ParseRules("Read(~/.aws/**), Read(.env), Read(secrets/**)")
	p := New(Config{Rules: Rules{Deny: r}, WorkDir: proj, Home: "/home/u"})
	judge := p.DenyReads()
	for b.Loop() {
		if judge(f, false) != "" {
			b.Fatal("denied")
		}
	}
}
