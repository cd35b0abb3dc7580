package sandbox

import (
	"bytes"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// fixture is a home with planted credentials and a project, both under
// a temp directory outside /tmp's other users.
type fixture struct {
	root, home, project, outside string
	env                          Env
}

func newFixture(t *testing.T) fixture {
	t.Helper()
	if Detect().LandlockABI == 0 {
		t.Skip("the kernel has no Landlock")
	}
	root := t.TempDir()
	f := fixture{root: root, home: filepath.Join(root, "home"), project: filepath.Join(root, "project"), outside: filepath.Join(root, "home", "outside")}
	for _, d := range []string{filepath.Join(f.home, ".ssh"), filepath.Join(f.project, ".git", "hooks"), f.outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write := func(p, s string) {
		if err := os.WriteFile(p, []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(f.home, ".ssh", "id_rsa"), "SECRET KEY\n")
	write(filepath.Join(f.home, ".ssh", "known_hosts"), "github.com ssh-ed25519 AAAA\n")
	write(filepath.Join(f.home, "notes"), "notes\n")
	write(filepath.Join(f.project, "main.go"), "package main\n")
	f.env = Env{Project: f.project, Home: f.home, Temp: filepath.Join(root, "tmp"), Getenv: func(string) string { return "" }}
	os.MkdirAll(f.env.Temp, 0o755)
	return f
}

// How a test starts the confined command: through Start (the fast path
// where it may be taken), the fast path alone, or the helper alone.
type startMode int

const (
	viaStart startMode = iota
	viaFast
	viaHelper
)

var modes = []struct {
	name string
	mode startMode
}{{"fast", viaFast}, {"helper", viaHelper}}

// run runs sh -c script confined by p in dir through Start and returns
// its output and exit error.
func run(t *testing.T, p Policy, dir, script string) (string, error) {
	t.Helper()
	return runVia(t, viaStart, p, dir, script)
}

func runVia(t *testing.T, mode startMode, p Policy, dir, script string) (string, error) {
	t.Helper()
	cmd := exec.Command("/bin/sh", "-c", script)
	cmd.Dir = dir
	// As the spawners do: a parent-death signal, which the fast path's
	// thread must not fire by ending before the command.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	var logs []string
	logf := func(s string) { logs = append(logs, s) }
	release := func() {}
	var err error
	switch mode {
	case viaStart:
		release, err = Start(cmd, p, logf)
	case viaFast:
		pr, perr := prepare(p)
		if perr != nil || pr == nil {
			t.Fatalf("prepare: %v, %v", pr, perr)
		}
		if !fastEligible(pr.spec) {
			t.Skip("the fast path is not taken for this user and policy")
		}
		var forked bool
		if forked, err = startFast(cmd, pr); !forked {
			t.Fatalf("the fast path failed before the fork: %v", err)
		}
	case viaHelper:
		if release, err = Wrap(cmd, p, logf); err == nil {
			err = cmd.Start()
		}
	}
	if err == nil {
		err = cmd.Wait()
	} else if _, ok := err.(*os.PathError); !ok {
		t.Fatal(err)
	}
	release()
	return out.String() + strings.Join(logs, "\n"), err
}

func TestBashPolicyFiles(t *testing.T) {
	f := newFixture(t)
	p := BashPolicy(f.env, DefaultConfig())
	tests := []struct {
		name, script string
		ok           bool
	}{
		{"read a key", "cat " + f.home + "/.ssh/id_rsa", false},
		{"read known_hosts", "cat " + f.home + "/.ssh/known_hosts", true},
		{"read the home", "cat " + f.home + "/notes", true},
		{"read the system", "cat /etc/hostname || cat /etc/os-release", true},
		{"write the project", "echo x > new.txt && mkdir -p a/b && echo y > a/b/c", true},
		{"write outside", "echo x > " + f.outside + "/x", false},
		{"write a git hook", "echo x > .git/hooks/pre-commit", false},
		{"write the credential store", "echo x >> " + f.home + "/.ssh/authorized_keys", false},
		{"a child inherits", "sh -c 'cat " + f.home + "/.ssh/id_rsa'", false},
		{"symlink to a key", "ln -s " + f.home + "/.ssh/id_rsa link && cat link", false},
		{"hardlink a key", "ln " + f.home + "/.ssh/id_rsa hl && cat hl", false},
		{"write /dev/null", "echo x > /dev/null", true},
	}
	for _, m := range modes {
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
}

func TestSeccompRefusesPtraceAndUnshare(t *testing.T) {
	f := newFixture(t)
	if _, err := exec.LookPath("unshare"); err != nil {
		t.Skip("no unshare")
	}
	for _, m := range modes {
		t.Run(m.name, func(t *testing.T) {
			out, err := runVia(t, m.mode, BashPolicy(f.env, DefaultConfig()), f.project, "unshare -n true")
			if err == nil {
				t.Fatalf("unshare ran:\n%s", out)
			}
		})
	}
}

func TestNetworkThroughProxy(t *testing.T) {
	f := newFixture(t)
	if !Detect().NetNS {
		t.Skip("no network namespaces")
	}
	if _, err := exec.LookPath("curl"); err != nil {
		t.Skip("no curl")
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "hello from the server") }))
	defer srv.Close()
	_, port, _ := net.SplitHostPort(srv.Listener.Addr().String())
	c := DefaultConfig()
	c.NetAllow = []string{"localhost"}
	p := BashPolicy(f.env, c)
	out, err := run(t, p, f.project, "curl -sS --max-time 5 http://localhost:"+port+"/")
	if err != nil || !strings.Contains(out, "hello from the server") {
		t.Fatalf("allowed host: err %v\n%s", err, out)
	}
	out, err = run(t, p, f.project, "curl -sS -f --max-time 5 http://127.0.0.1:"+port+"/")
	if err == nil || !strings.Contains(out, "blocked by the sandbox: connection to 127.0.0.1:"+port) {
		t.Fatalf("host not allowed: err %v\n%s", err, out)
	}
	// Around the proxy: the namespace's loopback has no server.
	out, err = run(t, p, f.project, "curl -sS --noproxy '*' --max-time 5 http://127.0.0.1:"+port+"/")
	if err == nil {
		t.Fatalf("direct connection went out:\n%s", out)
	}
	// CONNECT to a host not allowed.
	out, err = run(t, p, f.project, "curl -sS --max-time 5 -p http://127.0.0.1:"+port+"/")
	if err == nil || !strings.Contains(out, "blocked by the sandbox") {
		t.Fatalf("CONNECT: err %v\n%s", err, out)
	}
}

func TestBlockedExplains(t *testing.T) {
	f := newFixture(t)
	p := BashPolicy(f.env, DefaultConfig())
	out, _ := run(t, p, f.project, "cat "+f.home+"/.ssh/id_rsa; echo x > "+f.outside+"/x; echo y > .git/hooks/pre-commit")
	got := strings.Join(p.Blocked(f.project, out), "\n")
	for _, want := range []string{
		"blocked by the sandbox: read of a credential store: " + f.home + "/.ssh/id_rsa",
		"blocked by the sandbox: write outside the project: " + f.outside + "/x (sandbox.filesystem.allow_write",
		"blocked by the sandbox: write to a path kept read-only: " + f.project + "/.git/hooks/pre-commit",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in:\n%s\n(output:\n%s)", want, got, out)
		}
	}
}
