package sandbox

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// homeProjectFixture is newFixture's with the project at the home
// directory, which holds the credential stores (~/.ssh, ~/.netrc): the
// session a user starts in ~, and every testscript, whose HOME lies
// inside its work directory.
func homeProjectFixture(t *testing.T) (fixture, Policy) {
	t.Helper()
	f := newFixture(t)
	if err := os.WriteFile(filepath.Join(f.home, ".netrc"), []byte("machine x login me password SECRET\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	e := f.env
	e.Project = f.home
	return f, BashPolicy(e, DefaultConfig())
}

// A file a confined command creates in its project can be read back
// when the project holds a credential store (the defect Landlock's
// per-child grants had), while the stores stay unread and unwritten.
func TestProjectIsHomeMasks(t *testing.T) {
	f, p := homeProjectFixture(t)
	if !Detect().MountNS {
		t.Skip("no mount namespaces: the stores are hidden by per-child grants, and new files are not readable (docs/sandbox.md says so)")
	}
	tests := []struct {
		name, script string
		ok           bool
	}{
		{"write then read back", "echo x > new.txt && cat new.txt && mkdir -p d/e && echo y > d/e/f && cat d/e/f && rm new.txt", true},
		{"a child reads back", "echo x > kid.txt && sh -c 'cat kid.txt'", true},
		{"read an older file", "cat notes", true},
		{"read a key", "cat .ssh/id_rsa", false},
		{"a child reads a key", "sh -c 'cat " + f.home + "/.ssh/id_rsa'", false},
		{"the key is not there", "test ! -e .ssh/id_rsa", true},
		{"read known_hosts", "cat .ssh/known_hosts", true},
		{"write known_hosts", "echo x >> .ssh/known_hosts", false},
		{"write the credential store", "echo x > .ssh/authorized_keys", false},
		{"replace the store", "mv .ssh ssh-moved", false},
		{"read a hidden file", "cat .netrc", true}, // empty: /dev/null
		// Written into the null device: discarded, the file untouched.
		{"write a hidden file", "echo x > .netrc && test ! -s .netrc", true},
		{"symlink to a key", "ln -s .ssh/id_rsa link-key && cat link-key", false},
		{"write /dev/null", "echo x > /dev/null", true},
	}
	for _, m := range modes {
		for _, tc := range tests {
			t.Run(m.name+"/"+tc.name, func(t *testing.T) {
				out, err := runVia(t, m.mode, p, f.home, tc.script)
				if (err == nil) != tc.ok {
					t.Fatalf("%s: err %v, want ok=%v; output:\n%s", tc.script, err, tc.ok, out)
				}
				if strings.Contains(out, "SECRET") {
					t.Fatalf("a secret was read:\n%s", out)
				}
			})
		}
	}
	// Outside the sandbox nothing changed: the masks were the
	// command's own mount namespace's.
	for path, want := range map[string]string{".ssh/id_rsa": "SECRET KEY\n", ".netrc": "machine x login me password SECRET\n"} {
		got, err := os.ReadFile(filepath.Join(f.home, path))
		if err != nil || string(got) != want {
			t.Errorf("%s after the commands: %q, %v", path, got, err)
		}
	}
	// The model reads why the key was not found.
	out, _ := run(t, p, f.home, "cat "+f.home+"/.ssh/id_rsa")
	got := strings.Join(p.Blocked(f.home, out), "\n")
	if want := "blocked by the sandbox: read of a credential store: " + f.home + "/.ssh/id_rsa"; !strings.Contains(got, want) {
		t.Errorf("Blocked: %q, want %q (output %q)", got, want, out)
	}
	if got := p.Blocked(f.home, "cat: "+f.home+"/.aws/credentials: No such file or directory"); len(got) != 0 {
		t.Errorf("a store that does not exist was said blocked: %q", got)
	}
}

func TestPlanMasks(t *testing.T) {
	root := t.TempDir()
	home := filepath.Join(root, "home")
	for _, d := range []string{filepath.Join(home, ".ssh", "conf.d"), filepath.Join(home, ".kube"), filepath.Join(root, "out", ".ssh")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, file := range []string{".ssh/id_rsa", ".ssh/known_hosts", ".netrc", ".kube/config"} {
		if err := os.WriteFile(filepath.Join(home, file), []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(root, "nowhere"), filepath.Join(home, ".git-credentials")); err != nil {
		t.Fatal(err)
	}
	regular := filepath.Join(root, "not-null")
	if err := os.WriteFile(regular, nil, 0o666); err != nil {
		t.Fatal(err)
	}
	in := func(rel ...string) []string {
		var out []string
		for _, r := range rel {
			out = append(out, filepath.Join(home, r))
		}
		return out
	}
	p := Policy{
		Write:  []string{home},
		Hidden: append(in(".ssh", ".netrc", ".aws", ".git-credentials", ".kube", ".kube/config"), filepath.Join(root, "out", ".ssh")),
		Reveal: in(".ssh/known_hosts", ".ssh/config", ".ssh/conf.d"),
	}
	tests := []struct {
		name       string
		null       string
		wantMasks  []mask
		wantKept   []string
		wantAround []string
	}{
		{
			name: "the null device",
			null: "/dev/null",
			wantMasks: []mask{
				{Path: filepath.Join(home, ".kube"), Dir: true},
				{Path: filepath.Join(home, ".netrc")},
				{Path: filepath.Join(home, ".ssh"), Dir: true, Reveal: in(".ssh/conf.d", ".ssh/known_hosts")},
			},
			wantAround: []string{filepath.Join(root, "out", ".ssh")},
		},
		{
			name: "a regular file for the null device",
			null: regular,
			wantMasks: []mask{
				{Path: filepath.Join(home, ".kube"), Dir: true},
				{Path: filepath.Join(home, ".ssh"), Dir: true, Reveal: in(".ssh/conf.d", ".ssh/known_hosts")},
			},
			wantKept:   in(".netrc"),
			wantAround: append(in(".netrc"), filepath.Join(root, "out", ".ssh")),
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			defer func(old string) { nullPath = old }(nullPath)
			nullPath = tc.null
			masks, kept := planMasks(p)
			if d := cmp.Diff(tc.wantMasks, masks); d != "" {
				t.Errorf("masks (-want +got):\n%s", d)
			}
			if d := cmp.Diff(tc.wantKept, kept); d != "" {
				t.Errorf("kept (-want +got):\n%s", d)
			}
			if d := cmp.Diff(tc.wantAround, aroundHidden(p, true, kept)); d != "" {
				t.Errorf("around (-want +got):\n%s", d)
			}
			if d := cmp.Diff(resolveAll(p.Hidden), aroundHidden(p, false, kept)); d != "" {
				t.Errorf("around without masks (-want +got):\n%s", d)
			}
		})
	}
}

func TestNullDevice(t *testing.T) {
	if err := nullDevice("/dev/null"); err != nil {
		t.Fatalf("/dev/null: %v", err)
	}
	regular := filepath.Join(t.TempDir(), "null")
	if err := os.WriteFile(regular, nil, 0o666); err != nil {
		t.Fatal(err)
	}
	err := nullDevice(regular)
	if err == nil || !strings.Contains(err.Error(), "is not the null device (character device 1, 3)") {
		t.Fatalf("a regular file: %v", err)
	}
	if err := nullDevice("/dev/zero"); err == nil {
		t.Fatal("/dev/zero taken for the null device")
	}
}

// Applied with a wrong null device, masks refuse rather than show a file.
func TestApplyMasksRefusesAWrongNull(t *testing.T) {
	defer func(old string) { nullPath = old }(nullPath)
	nullPath = filepath.Join(t.TempDir(), "null")
	if err := os.WriteFile(nullPath, nil, 0o666); err != nil {
		t.Fatal(err)
	}
	// The check comes before any mount: nothing is mounted here, in the
	// test's own namespace.
	err := applyMasks([]mask{{Path: filepath.Join(t.TempDir(), "f")}})
	if err == nil || !strings.Contains(err.Error(), "not the null device") {
		t.Fatalf("applyMasks: %v", err)
	}
}
