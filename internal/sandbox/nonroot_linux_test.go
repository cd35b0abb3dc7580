package sandbox

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// unprivilegedEnv names, in the environment of the re-run test binary,
// the fixture root TestUnprivilegedChild confines commands in.
const unprivilegedEnv = "SYNAPS_SANDBOX_UNPRIVILEGED_ROOT"

// nobody is the unprivileged user the confined spawns run as.
const nobody = 65534

// The build machine runs as root, where the fast path may unshare a
// thread's mount namespace and the helper needs no user namespace. This
// re-runs the test binary as uid/gid 65534, which takes the paths a user
// who is not root takes — the helper in a user namespace of its own for
// the read-only mounts, the fast path without mounts — and checks there
// that the policy still holds (TestUnprivilegedChild) and that status
// tells the features as this user finds them (TestDetectMatchesTheKernel).
func TestConfinedAsUnprivilegedUser(t *testing.T) {
	if os.Getenv(unprivilegedEnv) != "" {
		t.Skip("the child runs TestUnprivilegedChild")
	}
	if os.Geteuid() != 0 {
		t.Skip("needs root to start a process as uid 65534; not being root, this run's other tests take the unprivileged path themselves")
	}
	if Detect().LandlockABI == 0 {
		t.Skip("the kernel has no Landlock")
	}
	root := t.TempDir()
	// The test binary, where uid 65534 may run it (go's build directory
	// is root's alone), and the fixture, owned by that user as a user's
	// home and project are.
	bin := filepath.Join(root, "sandbox.test")
	copyExecutable(t, os.Args[0], bin)
	f := fixtureAt(t, filepath.Join(root, "fx"))
	for _, d := range []string{filepath.Dir(root), root} {
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := filepath.Walk(f.root, func(p string, _ os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		return os.Lchown(p, nobody, nobody)
	}); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "-test.run=^(TestUnprivilegedChild|TestDetectMatchesTheKernel)$", "-test.v", "-test.count=1")
	cmd.Env = append(os.Environ(), unprivilegedEnv+"="+f.root, "HOME="+f.home, "TMPDIR="+f.env.Temp)
	cmd.Dir = f.root
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: nobody, Gid: nobody}}
	out, err := cmd.CombinedOutput()
	t.Logf("as uid %d:\n%s", nobody, out)
	if err != nil {
		t.Fatalf("the unprivileged run failed: %v", err)
	}
	for _, name := range []string{"TestUnprivilegedChild", "TestDetectMatchesTheKernel"} {
		if !strings.Contains(string(out), "--- PASS: "+name+" ") {
			t.Errorf("%s did not pass as uid 65534 (skipped?)", name)
		}
	}
}

// TestUnprivilegedChild is the unprivileged half of
// TestConfinedAsUnprivilegedUser; alone it skips.
func TestUnprivilegedChild(t *testing.T) {
	root := os.Getenv(unprivilegedEnv)
	if root == "" {
		t.Skip("run by TestConfinedAsUnprivilegedUser as uid 65534")
	}
	if os.Geteuid() == 0 || os.Getuid() == 0 {
		t.Fatal("still root")
	}
	f := fixtureIn(root)
	feat := Detect()
	t.Logf("features as uid %d: landlock ABI %d, seccomp %v, mount namespaces %v, network namespaces %v (%s)", os.Getuid(), feat.LandlockABI, feat.Seccomp, feat.MountNS, feat.NetNS, feat.Reason)
	p := BashPolicy(f.env, DefaultConfig())
	tests := []struct {
		name, script string
		ok           bool
	}{
		{"read a key", "cat " + f.home + "/.ssh/id_rsa", false},
		{"a child reads a key", "sh -c 'cat " + f.home + "/.ssh/id_rsa'", false},
		{"read known_hosts", "cat " + f.home + "/.ssh/known_hosts", true},
		{"write the project", "echo x > new.txt", true},
		{"write outside", "echo x > " + f.outside + "/x", false},
		{"write the credential store", "echo x >> " + f.home + "/.ssh/authorized_keys", false},
	}
	if feat.MountNS {
		tests = append(tests, struct {
			name, script string
			ok           bool
		}{"write a git hook", "echo x > .git/hooks/pre-commit", false})
	} else {
		t.Logf("no user namespaces for uid %d: .git/hooks stays writable (docs/sandbox.md says so)", os.Getuid())
	}
	for _, m := range []struct {
		name string
		mode startMode
	}{{"start", viaStart}, {"helper", viaHelper}} {
		for _, tc := range tests {
			t.Run(m.name+"/"+tc.name, func(t *testing.T) {
				out, err := runVia(t, m.mode, p, f.project, tc.script)
				if (err == nil) != tc.ok {
					t.Fatalf("%s: err %v, want ok=%v; output:\n%s", tc.script, err, tc.ok, out)
				}
				if strings.Contains(out, "SECRET") {
					t.Fatalf("the key was read:\n%s", out)
				}
			})
		}
	}
	// A project without read-only paths needs no mount namespace: the
	// fast path confines it without the helper, as a user too.
	bare := filepath.Join(root, "bare")
	if err := os.MkdirAll(bare, 0o755); err != nil {
		t.Fatal(err)
	}
	e := f.env
	e.Project = bare
	pb := BashPolicy(e, DefaultConfig())
	for _, tc := range tests {
		if strings.Contains(tc.script, ".git/hooks") {
			continue
		}
		t.Run("fast/"+tc.name, func(t *testing.T) {
			out, err := runVia(t, viaFast, pb, bare, tc.script)
			if (err == nil) != tc.ok {
				t.Fatalf("%s: err %v, want ok=%v; output:\n%s", tc.script, err, tc.ok, out)
			}
			if strings.Contains(out, "SECRET") {
				t.Fatalf("the key was read:\n%s", out)
			}
		})
	}
	// The project is the home directory, which holds ~/.ssh: with a
	// user namespace the store is masked and a new file reads back;
	// without one the store is still refused (by per-child grants).
	eh := f.env
	eh.Project = f.home
	ph := BashPolicy(eh, DefaultConfig())
	home := []struct {
		name, script string
		ok           bool
	}{
		{"read a key", "cat .ssh/id_rsa", false},
		{"write the credential store", "echo x >> .ssh/authorized_keys", false},
		{"read known_hosts", "cat .ssh/known_hosts", true},
	}
	if feat.MountNS {
		home = append(home, struct {
			name, script string
			ok           bool
		}{"write then read back", "echo x > new-in-home.txt && cat new-in-home.txt", true})
	}
	for _, m := range []struct {
		name string
		mode startMode
	}{{"start", viaStart}, {"helper", viaHelper}} {
		for _, tc := range home {
			t.Run("home-project/"+m.name+"/"+tc.name, func(t *testing.T) {
				out, err := runVia(t, m.mode, ph, f.home, tc.script)
				if (err == nil) != tc.ok {
					t.Fatalf("%s: err %v, want ok=%v; output:\n%s", tc.script, err, tc.ok, out)
				}
				if strings.Contains(out, "SECRET") {
					t.Fatalf("the key was read:\n%s", out)
				}
			})
		}
	}
}

// fixtureAt makes newFixture's home, project and outside directory under
// root; fixtureIn names them without making them.
func fixtureAt(t *testing.T, root string) fixture {
	t.Helper()
	f := fixtureIn(root)
	for _, d := range []string{filepath.Join(f.home, ".ssh"), filepath.Join(f.project, ".git", "hooks"), f.outside, f.env.Temp} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for p, s := range map[string]string{
		filepath.Join(f.home, ".ssh", "id_rsa"):      "SECRET KEY\n",
		filepath.Join(f.home, ".ssh", "known_hosts"): "github.com ssh-ed25519 AAAA\n",
		filepath.Join(f.project, "main.go"):          "package main\n",
	} {
		if err := os.WriteFile(p, []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return f
}

func fixtureIn(root string) fixture {
	f := fixture{root: root, home: filepath.Join(root, "home"), project: filepath.Join(root, "project"), outside: filepath.Join(root, "home", "outside")}
	f.env = Env{Project: f.project, Home: f.home, Temp: filepath.Join(root, "tmp"), Getenv: func(string) string { return "" }}
	return f
}

func copyExecutable(t *testing.T, from, to string) {
	t.Helper()
	in, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}
