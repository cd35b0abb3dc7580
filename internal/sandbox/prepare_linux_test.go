package sandbox

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// cacheFixture is a policy whose listed directories (the ancestors of
// its hidden path) are all inside the test's own directory, so that the
// test alone changes them: read the system and root, write root/links/w
// (a symbolic link to project a), and never home/.ssh.
type cacheFixture struct {
	root, home, a, b, link string
	p                      Policy
}

func newCacheFixture(t *testing.T) cacheFixture {
	t.Helper()
	if Detect().LandlockABI == 0 {
		t.Skip("the kernel has no Landlock")
	}
	root := t.TempDir()
	f := cacheFixture{root: root, home: filepath.Join(root, "home"), a: filepath.Join(root, "a"), b: filepath.Join(root, "b"), link: filepath.Join(root, "links", "w")}
	for _, d := range []string{filepath.Join(f.home, ".ssh"), f.a, f.b, filepath.Dir(f.link)} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(f.home, ".ssh", "id_rsa"), []byte("SECRET KEY\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(f.a, f.link); err != nil {
		t.Fatal(err)
	}
	f.p = Policy{
		Name:   "cache test",
		Kind:   "declared",
		Read:   append(systemDirs(Env{Home: filepath.Join(root, "home"), Getenv: func(string) string { return "" }}), root),
		Write:  []string{f.link},
		Hidden: []string{filepath.Join(f.home, ".ssh")},
	}
	return f
}

// settle backdates the listed directories past the racy window, as if
// they had last changed an hour ago.
func (f cacheFixture) settle(t *testing.T) {
	t.Helper()
	old := time.Now().Add(-time.Hour)
	for _, d := range []string{f.root, f.home} {
		if err := os.Chtimes(d, old, old); err != nil {
			t.Fatal(err)
		}
	}
}

// A policy is prepared once and reused while nothing it was built from
// changed; a new entry in a listed directory, or a symbolic link that
// now points elsewhere, makes the next spawn build it again — and see
// the change.
func TestPreparedPolicyIsReusedUntilItsPathsChange(t *testing.T) {
	f := newCacheFixture(t)
	f.settle(t)
	first, err := prepare(f.p)
	if err != nil || first == nil {
		t.Fatalf("prepare: %v, %v", first, err)
	}
	if again, _ := prepare(f.p); again != first {
		t.Fatal("nothing changed, yet the policy was prepared again")
	}

	// A directory created in the home after the preparation: its
	// ruleset enumerated the home without it.
	fresh := filepath.Join(f.home, "new")
	if err := os.MkdirAll(fresh, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(fresh, "file"), []byte("readable\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if again, _ := prepare(f.p); again == first {
		t.Fatal("a new entry in a listed directory did not make the preparation stale")
	}
	if out, err := run(t, f.p, f.root, "cat "+fresh+"/file"); err != nil || !strings.Contains(out, "readable") {
		t.Fatalf("a directory created after the first spawn is not readable: err %v\n%s", err, out)
	}
	if out, err := run(t, f.p, f.root, "cat "+f.home+"/.ssh/id_rsa"); err == nil || strings.Contains(out, "SECRET") {
		t.Fatalf("the key was read:\n%s", out)
	}

	// The writable path is a link; pointed at b, b is writable, a no more.
	f.settle(t)
	if out, err := run(t, f.p, f.root, "echo x > "+f.a+"/x"); err != nil {
		t.Fatalf("write through the link's first target: err %v\n%s", err, out)
	}
	if err := os.Remove(f.link); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(f.b, f.link); err != nil {
		t.Fatal(err)
	}
	// Only links/ changed, which is not listed: the link itself is stamped.
	if out, err := run(t, f.p, f.root, "echo x > "+f.b+"/x"); err != nil {
		t.Fatalf("write through the re-pointed link: err %v\n%s", err, out)
	}
	if out, err := run(t, f.p, f.root, "echo x > "+f.a+"/y"); err == nil {
		t.Fatalf("wrote to the link's old target:\n%s", out)
	}
}

// A listed directory that changed within the racy window may change again
// unseen by its times (they tick coarsely): such a preparation serves one
// spawn and is not kept.
func TestPreparedPolicyIsNotKeptWhenAListingIsRacy(t *testing.T) {
	f := newCacheFixture(t) // its directories were just created
	first, err := prepare(f.p)
	if err != nil || first == nil {
		t.Fatalf("prepare: %v, %v", first, err)
	}
	if again, _ := prepare(f.p); again == first {
		t.Fatal("a listing made within the racy window was kept")
	}
}
