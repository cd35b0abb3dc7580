package sidecar

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/synaps-cli/synaps/internal/sandbox"
)

// The test binary is the sidecar: with SIDECAR_FAKE set, TestMain runs
// fakeSidecar instead of the tests. SIDECAR_FAKE says how it behaves:
// "ok" (protocol 2, ready after init), "old" (protocol 1), "mute" (no
// hello: it exits).
func TestMain(m *testing.M) {
	if mode := os.Getenv("SIDECAR_FAKE"); mode != "" {
		fakeSidecar(mode)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func fakeSidecar(mode string) {
	say := func(v map[string]any) {
		b, _ := json.Marshal(v)
		fmt.Println(string(b))
	}
	switch mode {
	case "mute":
		return
	case "old":
		say(map[string]any{"type": "hello", "protocol_version": 1})
	default:
		say(map[string]any{"type": "hello", "protocol_version": 2, "capabilities": []string{"ready_after_init"}})
	}
	sc := bufio.NewScanner(os.Stdin)
	for sc.Scan() {
		var m struct{ Type, Name string }
		json.Unmarshal(sc.Bytes(), &m)
		switch {
		case m.Type == "init":
			if f := os.Getenv("SIDECAR_PEEK"); f != "" {
				// "peek": say what reading the file gave.
				b, err := os.ReadFile(f)
				msg := "read: " + string(b)
				if err != nil {
					msg = err.Error()
				}
				say(map[string]any{"type": "error", "message": msg})
			}
			say(map[string]any{"type": "status", "state": "ready"})
		case m.Type == "trigger" && m.Name == "press":
			say(map[string]any{"type": "custom", "x": 1})
			say(map[string]any{"type": "insert_text", "text": "part", "mode": "append"})
			say(map[string]any{"type": "insert_text", "text": " hello ", "mode": "final"})
			say(map[string]any{"type": "status", "state": "recording", "label": "listening"})
		case m.Type == "trigger" && m.Name == "release":
			say(map[string]any{"type": "error", "message": "mic lost"})
			say(map[string]any{"type": "status", "state": "idle"})
		case m.Type == "shutdown":
			return
		}
	}
}

func spec(t *testing.T, mode string) Spec {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return Spec{Plugin: "voice", Display: "Dictation", Command: self, Env: append(os.Environ(), "SIDECAR_FAKE="+mode)}
}

// TestLifecycle: hello, init, ready; a press brings its text (final only,
// trimmed) and status; a release an error and idle; shutdown at the end.
func TestLifecycle(t *testing.T) {
	var mu sync.Mutex
	var got []string
	s, err := Start(spec(t, "ok"), func(ev Event) {
		mu.Lock()
		defer mu.Unlock()
		got = append(got, strings.TrimSpace(fmt.Sprintf("%s %s %s %s %s", ev.Kind, ev.State, ev.Label, ev.Text, ev.Message)))
	})
	if err != nil {
		t.Fatal(err)
	}
	if st := s.Status(); st != "idle" {
		t.Errorf("status after start = %q", st)
	}
	if trig, err := s.Toggle(); trig != "press" || err != nil {
		t.Fatalf("toggle = %q, %v", trig, err)
	}
	if st := s.Status(); st != "active (listening)" {
		t.Errorf("status after press = %q", st)
	}
	if trig, _ := s.Toggle(); trig != "release" {
		t.Fatalf("second toggle = %q", trig)
	}
	s.Stop()
	mu.Lock()
	defer mu.Unlock()
	want := []string{"status ready", "insert_text   hello", "status recording listening", "error    mic lost", "status idle"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("events (-want +got):\n%s", d)
	}
}

// TestStartFailures: a sidecar that is too old or says nothing is
// refused, naming the plugin and why.
func TestStartFailures(t *testing.T) {
	for mode, want := range map[string]string{
		"old":  "sidecar of plugin voice: its protocol version 1 is too old (synaps speaks 2)",
		"mute": "sidecar of plugin voice: it exited before saying hello",
	} {
		_, err := Start(spec(t, mode), nil)
		if err == nil || err.Error() != want {
			t.Errorf("%s: err = %v, want %q", mode, err, want)
		}
	}
	_, err := Start(Spec{Plugin: "voice", Command: "/no/such/sidecar"}, nil)
	if err == nil || !strings.Contains(err.Error(), "cannot start /no/such/sidecar") {
		t.Errorf("missing binary: %v", err)
	}
}

// TestConfined: a sidecar with a policy runs inside it — a file the
// policy hides is refused to it, as to its plugin's other processes.
func TestConfined(t *testing.T) {
	if sandbox.Detect().LandlockABI == 0 {
		t.Skip("the kernel has no Landlock")
	}
	secret := filepath.Join(t.TempDir(), "secret")
	if err := os.WriteFile(secret, []byte("SECRET"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name   string
		policy *sandbox.Policy
		want   string
	}{
		{"unconfined", nil, "read: SECRET"},
		{"confined", &sandbox.Policy{Name: "plugin voice", ReadAll: true, Hidden: []string{filepath.Dir(secret)}}, "open " + secret + ": permission denied"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			sp := spec(t, "ok")
			sp.Env = append(sp.Env, "SIDECAR_PEEK="+secret)
			sp.Policy = tt.policy
			var mu sync.Mutex
			var got []string
			s, err := Start(sp, func(ev Event) {
				mu.Lock()
				defer mu.Unlock()
				if ev.Kind == "error" {
					got = append(got, ev.Message)
				}
			})
			if err != nil {
				t.Fatal(err)
			}
			s.Stop()
			mu.Lock()
			defer mu.Unlock()
			if d := cmp.Diff([]string{tt.want}, got); d != "" {
				t.Errorf("errors (-want +got):\n%s", d)
			}
		})
	}
}

// TestRefusedStartClosesItsPipes: a sidecar the sandbox refuses before the
// fork (here its restricted network's proxy cannot be made: TMPDIR is
// missing) is an error naming the plugin, and leaves none of its pipes
// open.
func TestRefusedStartClosesItsPipes(t *testing.T) {
	if !sandbox.Detect().NetNS {
		t.Skip("needs network namespaces (a restricted network takes the helper and its proxy)")
	}
	t.Setenv("TMPDIR", filepath.Join(t.TempDir(), "missing"))
	refused := func() {
		t.Helper()
		sp := spec(t, "ok")
		sp.Policy = &sandbox.Policy{Name: "plugin voice", ReadAll: true, Network: sandbox.Network{Restricted: true}}
		_, err := Start(sp, func(Event) {})
		if err == nil || !strings.Contains(err.Error(), "sidecar of plugin voice: ") || !strings.Contains(err.Error(), "sandbox proxy") {
			t.Fatalf("err = %v, want the proxy's failure for plugin voice", err)
		}
	}
	refused() // the runtime's poller and the like, opened once
	before := openFDs(t)
	refused()
	if after := openFDs(t); after != before {
		t.Errorf("%d descriptors open after a refused start, %d before", after, before)
	}
}

func openFDs(t *testing.T) int {
	t.Helper()
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skip(err)
	}
	return len(ents)
}
