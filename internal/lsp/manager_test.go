package lsp

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// messages are the error messages of ds.
func messages(ds []Diagnostic) []string {
	var out []string
	for _, d := range ds {
		out = append(out, d.Message)
	}
	return out
}

func ptr(s string) *string { return &s }

// A file written new gets all its errors; an edit gets only the errors
// it brought; a file that existed is first opened as it was, so its old
// errors are not new; a warning is never reported.
func TestDiagnose(t *testing.T) {
	for _, mode := range []string{"ok", "noversion", "onsave"} {
		t.Run(mode, func(t *testing.T) {
			dir := t.TempDir()
			m := NewManager([]Server{fakeServer(mode)}, Options{WorkDir: dir})
			defer m.Close()
			steps := []struct {
				file, before, after string
				want                []string
				errors              int
			}{
				{"a.fk", "", "x error: one\nwarning: w\n", []string{"one"}, 1},
				{"a.fk", "x error: one\n", "x error: one\ny error: two\n", []string{"two"}, 2},
				{"a.fk", "", "z\ny error: two\n", nil, 1},
				{"old.fk", "error: was there\n", "error: was there\nerror: added\n", []string{"added"}, 2},
			}
			if mode == "onsave" {
				// A server that reads the disk at didSave has no
				// before: the file's errors are all new.
				steps[3].want = []string{"was there", "added"}
			}
			for i, s := range steps {
				path := filepath.Join(dir, s.file)
				if err := os.WriteFile(path, []byte(s.after), 0o644); err != nil {
					t.Fatal(err)
				}
				var before *string
				if s.before != "" {
					before = ptr(s.before)
				}
				rep := m.Diagnose(t.Context(), path, before, s.after)
				if rep == nil || rep.Err != nil || rep.TimedOut {
					t.Fatalf("step %d: %+v", i, rep)
				}
				if diff := cmp.Diff(s.want, messages(rep.New)); diff != "" || rep.Errors != s.errors || rep.Path != s.file {
					t.Errorf("step %d: new (-want +got):\n%s; errors %d want %d; path %q", i, diff, rep.Errors, s.errors, rep.Path)
				}
			}
			if rep := m.Diagnose(t.Context(), filepath.Join(dir, "a.txt"), nil, "error: x"); rep != nil || m.Serves("b.txt") || !m.Serves("B.FK") {
				t.Errorf("a file no server serves: %+v", rep)
			}
		})
	}
}

// What the config says reaches the server: the expanded command line
// and env, initializationOptions, settings for workspace/configuration,
// the workspace folder; and the session's end is shutdown then exit.
func TestConfigReachesServer(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(t.TempDir(), "log.jsonl")
	sv := fakeServer("ok")
	sv.PluginDir, sv.PluginID = "/plugins/fk", "fk"
	sv.Env["FAKE_LSP_LOG"] = log
	sv.Env["FAKE_LSP_ECHO"] = "${CLAUDE_PLUGIN_ROOT}/lib:${HOME_LIKE:-dflt}"
	sv.InitializationOptions = json.RawMessage(`{"strict":true}`)
	sv.Settings = json.RawMessage(`{"fake":{"deep":{"level":2}}}`)
	sv.WorkspaceFolder = "sub"
	os.Mkdir(filepath.Join(dir, "sub"), 0o755)
	m := NewManager([]Server{sv}, Options{WorkDir: dir, Getenv: func(k string) string {
		if k == "PATH" {
			return os.Getenv("PATH")
		}
		return ""
	}})
	path := filepath.Join(dir, "sub", "x.fk")
	if rep := m.Diagnose(t.Context(), path, nil, "ok\n"); rep == nil || rep.Err != nil {
		t.Fatalf("%+v", rep)
	}
	if rep := m.Diagnose(t.Context(), path, nil, "error: e\n"); rep == nil || len(rep.New) != 1 {
		t.Fatalf("%+v", rep)
	}
	m.Close()
	got := map[string][]string{}
	var order []string
	f, err := os.Open(log)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var l struct {
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
		}
		json.Unmarshal(sc.Bytes(), &l)
		got[l.Method] = append(got[l.Method], string(l.Params))
		order = append(order, l.Method)
	}
	var init struct {
		RootURI               string          `json:"rootUri"`
		InitializationOptions json.RawMessage `json:"initializationOptions"`
	}
	json.Unmarshal([]byte(got["initialize"][0]), &init)
	if init.RootURI != fileURI(filepath.Join(dir, "sub")) || string(init.InitializationOptions) != `{"strict":true}` {
		t.Errorf("initialize: %s", got["initialize"][0])
	}
	if want := `"/plugins/fk/lib:dflt"`; got["env"][0] != want {
		t.Errorf("env echo %s, want %s", got["env"][0], want)
	}
	if want := `[{"deep":{"level":2}},{"level":2},null]`; len(got["configuration"]) != 1 || got["configuration"][0] != want {
		t.Errorf("configuration answer %v, want %s", got["configuration"], want)
	}
	if want := `{"settings":{"fake":{"deep":{"level":2}}}}`; len(got["workspace/didChangeConfiguration"]) != 1 || got["workspace/didChangeConfiguration"][0] != want {
		t.Errorf("didChangeConfiguration %v", got["workspace/didChangeConfiguration"])
	}
	if len(got["textDocument/didOpen"]) != 1 || len(got["textDocument/didChange"]) != 1 || !strings.Contains(got["textDocument/didChange"][0], `"version":2`) {
		t.Errorf("didOpen %v didChange %v", got["textDocument/didOpen"], got["textDocument/didChange"])
	}
	if n := len(order); n < 2 || order[n-2] != "shutdown" || order[n-1] != "exit" {
		t.Errorf("the end is %v, want shutdown, exit", order)
	}
}

// A server that never publishes costs the wait and reports nothing; one
// that cannot start is said once with its stderr; one that crashes is
// said and restarted at the next edit, up to maxRestarts; one that does
// not initialize is said with the startupTimeout to raise.
func TestServerTrouble(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a.fk")
	t.Run("silent", func(t *testing.T) {
		m := NewManager([]Server{fakeServer("silent")}, Options{WorkDir: dir, Wait: time.Millisecond, FirstWait: time.Millisecond})
		defer m.Close()
		rep := m.Diagnose(t.Context(), path, nil, "error: x\n")
		if rep == nil || !rep.TimedOut || len(rep.New) != 0 || rep.Err != nil {
			t.Errorf("%+v", rep)
		}
	})
	t.Run("late", func(t *testing.T) {
		// The first answer comes after synaps stopped waiting: the
		// errors it holds are new at the next edit all the same.
		m := NewManager([]Server{fakeServer("late")}, Options{WorkDir: dir, Wait: time.Minute, FirstWait: 50 * time.Millisecond})
		defer m.Close()
		if rep := m.Diagnose(t.Context(), path, nil, "error: a\n"); rep == nil || !rep.TimedOut || len(rep.New) != 0 {
			t.Fatalf("%+v", rep)
		}
		// Another file's open makes the fake send the held answer
		// first: synaps has it, too late, before a.fk's next edit.
		if rep := m.Diagnose(t.Context(), filepath.Join(dir, "b.fk"), nil, "fine\n"); rep == nil || rep.TimedOut {
			t.Fatalf("b.fk: %+v", rep)
		}
		rep := m.Diagnose(t.Context(), path, nil, "error: a\nerror: b\n")
		if rep == nil || rep.TimedOut || rep.Err != nil {
			t.Fatalf("%+v", rep)
		}
		if diff := cmp.Diff([]string{"a", "b"}, messages(rep.New)); diff != "" {
			t.Errorf("new (-want +got):\n%s", diff)
		}
	})
	t.Run("fail", func(t *testing.T) {
		m := NewManager([]Server{fakeServer("fail")}, Options{WorkDir: dir})
		defer m.Close()
		rep := m.Diagnose(t.Context(), path, nil, "x")
		if rep == nil || rep.Err == nil || !strings.Contains(rep.Err.Error(), "did not start") || !strings.Contains(rep.Err.Error(), "stderr: fake-lsp: cannot find the project's interpreter") {
			t.Fatalf("%+v", rep)
		}
		if rep := m.Diagnose(t.Context(), path, nil, "x"); rep != nil {
			t.Errorf("said twice: %+v", rep)
		}
	})
	t.Run("missing command", func(t *testing.T) {
		sv := fakeServer("ok")
		sv.Command = "no-such-language-server"
		m := NewManager([]Server{sv}, Options{WorkDir: dir})
		rep := m.Diagnose(t.Context(), path, nil, "x")
		if rep == nil || rep.Err == nil || !strings.Contains(rep.Err.Error(), `cannot start "no-such-language-server"`) {
			t.Fatalf("%+v", rep)
		}
	})
	t.Run("crash", func(t *testing.T) {
		sv := fakeServer("crash")
		sv.MaxRestarts = 1
		m := NewManager([]Server{sv}, Options{WorkDir: dir})
		defer m.Close()
		// The fake crashes at each didChange: an open works, a change
		// fails; the next edit restarts it (said), once.
		for i, want := range []struct {
			err    string
			new    int
			silent bool
		}{{"", 1, false}, {"crashed on purpose", 0, false}, {"started again", 1, false}, {"crashed on purpose", 0, false}, {"", 0, true}} {
			rep := m.Diagnose(t.Context(), path, nil, "error: x\n")
			if want.silent {
				if rep != nil {
					t.Errorf("edit %d after the restarts: %+v", i, rep)
				}
				continue
			}
			if rep == nil || len(rep.New) != want.new || (want.err == "") != (rep.Err == nil) || rep.Err != nil && !strings.Contains(rep.Err.Error(), want.err) {
				t.Errorf("edit %d: %+v, want %d new and an error with %q", i, rep, want.new, want.err)
			}
		}
	})
	t.Run("killed between edits", func(t *testing.T) {
		m := NewManager([]Server{fakeServer("ok")}, Options{WorkDir: dir})
		defer m.Close()
		if rep := m.Diagnose(t.Context(), path, nil, "error: x\n"); rep == nil || len(rep.New) != 1 {
			t.Fatalf("%+v", rep)
		}
		c := m.all[0].client
		c.cmd.Process.Kill()
		<-c.Exited()
		// Said, and restarted: the file is opened afresh, its error
		// new again.
		if rep := m.Diagnose(t.Context(), path, nil, "error: x\n"); rep == nil || rep.Err == nil || !strings.Contains(rep.Err.Error(), "exited") ||
			!strings.Contains(rep.Err.Error(), "started again") || len(rep.New) != 1 {
			t.Fatalf("%+v", rep)
		}
		if rep := m.Diagnose(t.Context(), path, nil, "error: x\n"); rep == nil || rep.Err != nil || len(rep.New) != 0 {
			t.Fatalf("%+v", rep)
		}
	})
	t.Run("noinit", func(t *testing.T) {
		sv := fakeServer("noinit")
		sv.StartupTimeout = 50 * time.Millisecond
		m := NewManager([]Server{sv}, Options{WorkDir: dir})
		defer m.Close()
		rep := m.Diagnose(t.Context(), path, nil, "x")
		if rep == nil || rep.Err == nil || !strings.Contains(rep.Err.Error(), `set "startupTimeout"`) {
			t.Fatalf("%+v", rep)
		}
	})
}

// Two servers for one extension: the first by plugin serves it.
func TestShadowed(t *testing.T) {
	a, b := fakeServer("ok"), fakeServer("silent")
	a.PluginID, b.PluginID = "a", "b"
	m := NewManager([]Server{b, a}, Options{WorkDir: t.TempDir(), Wait: time.Millisecond})
	defer m.Close()
	rep := m.Diagnose(t.Context(), filepath.Join(t.TempDir(), "x.fk"), nil, "error: e")
	if rep == nil || rep.Server != "fake (plugin a)" || len(rep.New) != 1 {
		t.Fatalf("%+v", rep)
	}
	sts := m.Statuses()
	if len(sts) != 2 || sts[1].ShadowedBy != "fake (plugin a)" || sts[0].State != StateRunning || sts[1].State != StateIdle {
		t.Errorf("%+v", sts)
	}
}
