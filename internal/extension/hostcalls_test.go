package extension

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/synaps-cli/synaps/internal/config"
	"github.com/synaps-cli/synaps/internal/jsonrpc"
	"github.com/synaps-cli/synaps/internal/plugin"
)

// hostCallRig is one extension's side of the requests it sends to synaps:
// ext is a JSON-RPC connection over real pipes whose other end is served
// by the Extension's handlers, as a running process's is.
type hostCallRig struct {
	e     *Extension
	ext   *jsonrpc.Conn
	notes chan [2]string // method, params the extension received
}

func newHostCallRig(t testing.TB, base, id string, perms []string, configEntries string) *hostCallRig {
	t.Helper()
	dir := filepath.Join(base, "plugins", id)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	permJSON, _ := json.Marshal(perms)
	if configEntries == "" {
		configEntries = "[]"
	}
	m, err := plugin.ParseManifest(filepath.Join(dir, "plugin.json"), []byte(`{"name":"`+id+`","extension":{"command":"x","permissions":`+string(permJSON)+`,"config":`+configEntries+`}}`))
	if err != nil {
		t.Fatal(err)
	}
	h := NewHost(Options{BaseDir: base, Getenv: func(string) string { return "" }})
	e := newExtension(&plugin.Plugin{ID: id, Dir: dir, Manifest: m}, h.env)
	hostR, extW := io.Pipe()
	extR, hostW := io.Pipe()
	hostConn := jsonrpc.NewConn(hostR, hostW, jsonrpc.Options{Handler: e.handleRequest, OnNotify: e.handleNotification})
	r := &hostCallRig{e: e, notes: make(chan [2]string, 16)}
	r.ext = jsonrpc.NewConn(extR, extW, jsonrpc.Options{OnNotify: func(method string, params json.RawMessage) {
		r.notes <- [2]string{method, string(params)}
	}})
	e.proc = &process{conn: hostConn}
	t.Cleanup(func() {
		e.cancelLife()
		r.ext.Close()
		hostConn.Close()
		extW.Close()
		hostW.Close()
		e.log.close()
	})
	return r
}

func (r *hostCallRig) call(t testing.TB, method, params string) (string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var p any
	if params != "" {
		p = json.RawMessage(params)
	}
	res, err := r.ext.Call(ctx, method, p)
	return string(res), err
}

// TestHostCallPermissions: every request is gated by its permission; an
// unknown method is -32601.
func TestHostCallPermissions(t *testing.T) {
	tests := []struct {
		perms          []string
		method, params string
		code           int    // 0 = succeeds
		msg            string // substring of the error, or the result
	}{
		{nil, "no.such", `{}`, -32601, "method not found: no.such"},
		{nil, "config.get", `{"key":"k"}`, 0, `{"value":null}`},
		{nil, "config.set", `{"key":"k","value":"v"}`, -32602, `permission denied: config.set requires the "config.write" permission; add it to extension.permissions in`},
		{nil, "config.subscribe", `{}`, -32602, `permission denied: config.subscribe requires the "config.subscribe" permission`},
		{nil, "memory.append", `{"content":"x"}`, -32602, `permission denied: memory.append requires the "memory.write" permission`},
		{nil, "memory.query", `{}`, -32602, `permission denied: memory.query requires the "memory.read" permission`},
		{[]string{"memory.write"}, "memory.append", `{"namespace":"other","content":"x"}`, -32602, `namespace "other" is not this extension's`},
		{[]string{"memory.write"}, "memory.append", `{}`, -32602, `memory.append: missing content`},
		{[]string{"memory.write"}, "memory.append", `{"content":"` + strings.Repeat("x", 16<<10+1) + `"}`, -32602, `at most 16384 are stored`},
		{[]string{"config.write"}, "config.set", `{"key":"a.b","value":"v"}`, -32602, `config key "a.b" is not valid`},
		{[]string{"config.write"}, "config.set", `{"key":"n","value":"many"}`, -32602, `is of type number: "many" is not a number`},
		{[]string{"config.write"}, "config.set", `{"key":"n","value":[1]}`, -32602, `value must be a string, got an array`},
		{[]string{"config.subscribe"}, "config.subscribe", `"anything"`, 0, `{"ok":true}`},
	}
	for _, tt := range tests {
		t.Run(tt.method+strings.Join(tt.perms, ","), func(t *testing.T) {
			r := newHostCallRig(t, t.TempDir(), "p", tt.perms, `[{"key":"n","type":"number"}]`)
			res, err := r.call(t, tt.method, tt.params)
			if tt.code == 0 {
				if err != nil || res != tt.msg {
					t.Fatalf("%s = %s, %v; want %s", tt.method, res, err, tt.msg)
				}
				return
			}
			var rpcErr *jsonrpc.Error
			if !errors.As(err, &rpcErr) || rpcErr.Code != tt.code || !strings.Contains(rpcErr.Message, tt.msg) {
				t.Fatalf("%s = %s, %v; want error %d containing %q", tt.method, res, err, tt.code, tt.msg)
			}
		})
	}
}

// TestHostCallMemory: records round-trip, newest first, and outlive the
// extension (a second one over the same base dir reads them).
func TestHostCallMemory(t *testing.T) {
	base := t.TempDir()
	perms := []string{"memory.read", "memory.write"}
	r := newHostCallRig(t, base, "mem", perms, "")
	for _, p := range []string{`{"namespace":"mem","content":"first note","tags":["a/1"]}`, `{"content":"Second note","meta":{"n":2}}`} {
		if res, err := r.call(t, "memory.append", p); err != nil || !strings.Contains(res, `"ok":true,"timestamp_ms":`) {
			t.Fatalf("memory.append: %s, %v", res, err)
		}
	}
	r2 := newHostCallRig(t, base, "mem", perms, "")
	res, err := r2.call(t, "memory.query", `{"content_contains":"NOTE"}`)
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Records []struct {
			Namespace, Content string
			Tags               []string
			Meta               json.RawMessage
		}
	}
	if err := json.Unmarshal([]byte(res), &got); err != nil {
		t.Fatal(err)
	}
	var summary []string
	for _, rec := range got.Records {
		summary = append(summary, rec.Namespace+":"+rec.Content+":"+strings.Join(rec.Tags, ",")+":"+string(rec.Meta))
	}
	if diff := cmp.Diff([]string{`mem:Second note::{"n":2}`, "mem:first note:a/1:"}, summary); diff != "" {
		t.Errorf("memory.query (-want +got):\n%s", diff)
	}
	if res, err := r2.call(t, "memory.query", `{"tag_prefix":"a/","limit":5}`); err != nil || !strings.Contains(res, "first note") || strings.Contains(res, "Second") {
		t.Errorf("tag_prefix query: %s, %v", res, err)
	}
}

// TestHostCallConfig: config.set writes the plugin config file (comments
// kept), config.get reads it back as SynapsCLI's string, and a subscriber
// hears config.changed for its keys — at once for config.set, and for a
// write by another process (the CLI) at the next poll.
func TestHostCallConfig(t *testing.T) {
	base := t.TempDir()
	r := newHostCallRig(t, base, "cfg", []string{"config.write", "config.subscribe"}, `[{"key":"max-items","type":"number","default":3},{"key":"greeting"}]`)
	file := filepath.Join(base, "plugins", "cfg", "config")
	os.WriteFile(file, []byte("# mine\ngreeting = hi\n"), 0o600)
	if res, _ := r.call(t, "config.get", `{"key":"max-items"}`); res != `{"value":"3"}` {
		t.Errorf("config.get of a default = %s", res)
	}
	if res, err := r.call(t, "config.subscribe", `{"keys":["max-items","greeting"]}`); err != nil || res != `{"ok":true}` {
		t.Fatalf("config.subscribe: %s, %v", res, err)
	}
	if res, err := r.call(t, "config.set", `{"key":"max-items","value":7}`); err != nil || res != `{"ok":true}` {
		t.Fatalf("config.set: %s, %v", res, err)
	}
	want := func(note [2]string) {
		t.Helper()
		select {
		case got := <-r.notes:
			if diff := cmp.Diff(note, got); diff != "" {
				t.Errorf("notification (-want +got):\n%s", diff)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("no %s notification", note[0])
		}
	}
	want([2]string{"config.changed", `{"key":"max-items","value":"7"}`})
	if res, _ := r.call(t, "config.get", `{"key":"max-items"}`); res != `{"value":"7"}` {
		t.Errorf("config.get after set = %s", res)
	}
	// Another process removes a key and sets one nobody subscribed to.
	if err := config.Set(file, "greeting", ""); err != nil {
		t.Fatal(err)
	}
	if err := config.Set(file, "other", "x"); err != nil {
		t.Fatal(err)
	}
	want([2]string{"config.changed", `{"key":"greeting","value":null}`})
	data, _ := os.ReadFile(file)
	if diff := cmp.Diff("# mine\nmax-items = 7\nother = x\n", string(data)); diff != "" {
		t.Errorf("config file (-want +got):\n%s", diff)
	}
	select {
	case n := <-r.notes:
		t.Errorf("unexpected notification %v", n)
	case <-time.After(2 * configPoll):
	}
}

// TestExtensionNotifications: log goes to the extension's log, notify to
// the user, widget.* becomes one warning.
func TestExtensionNotifications(t *testing.T) {
	base := t.TempDir()
	r := newHostCallRig(t, base, "n", nil, "")
	said := make(chan string, 4)
	r.e.env.notify = &notifier{f: func(s string) { said <- s }}
	r.ext.Notify("log", map[string]any{"level": "info", "message": "logged line"})
	r.ext.Notify("notify", map[string]any{"message": "look here"})
	r.ext.Notify("widget.upsert", map[string]any{"id": "w", "lines": []string{}})
	r.ext.Notify("widget.dismiss", map[string]any{"id": "w"})
	select {
	case s := <-said:
		if s != "n: look here" {
			t.Errorf("notify said %q", s)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("notify never reached the user")
	}
	// A request after the notifications: they have been read by then.
	r.call(t, "config.get", `{"key":"x"}`)
	lines := strings.Join(r.e.log.lines(20), "\n")
	if !strings.Contains(lines, "log info: logged line") {
		t.Errorf("log lines:\n%s", lines)
	}
	r.e.mu.Lock()
	problems := r.e.problems
	r.e.mu.Unlock()
	if diff := cmp.Diff([]string{"synaps does not show extension widgets yet; widget.upsert and widget.dismiss are ignored"}, problems); diff != "" {
		t.Errorf("problems (-want +got):\n%s", diff)
	}
}

// BenchmarkMemoryQueryRoundTrip: memory.query from an extension over
// pipes, answered from a store of 1,000 records (limit 50).
func BenchmarkMemoryQueryRoundTrip(b *testing.B) {
	r := newHostCallRig(b, b.TempDir(), "mem", []string{"memory.read", "memory.write"}, "")
	for i := range 1000 {
		if _, err := r.call(b, "memory.append", `{"content":"note `+strings.Repeat("x", i%50)+`","tags":["t"]}`); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := r.call(b, "memory.query", `{"content_contains":"note","limit":50}`); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkConfigChangedLatency: from config.set (sent by one extension)
// to the config.changed notification reaching a subscribed extension of
// the same plugin.
func BenchmarkConfigChangedLatency(b *testing.B) {
	base := b.TempDir()
	setter := newHostCallRig(b, base, "cfg", []string{"config.write"}, `[{"key":"k"}]`)
	sub := newHostCallRig(b, base, "cfg", []string{"config.subscribe"}, `[{"key":"k"}]`)
	sub.e.env = setter.e.env // one host: the kick reaches the subscriber
	if _, err := sub.call(b, "config.subscribe", `{}`); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	i := 0
	for b.Loop() {
		i++
		if _, err := setter.call(b, "config.set", `{"key":"k","value":"v`+strings.Repeat("1", i%7)+`"}`); err != nil {
			b.Fatal(err)
		}
		select {
		case <-sub.notes:
		case <-time.After(10 * time.Second):
			b.Fatal("no config.changed")
		}
	}
}
