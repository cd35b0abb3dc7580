package claude

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"testing"

	"github.com/synaps-cli/synaps/internal/contract"
	"github.com/synaps-cli/synaps/internal/hook"
)

// benchChain is a chain with one Claude link whose PreToolUse hook on
// matcher runs `exit 0`.
func benchChain(b *testing.B, matcher string) *hook.Chain {
	h, _, err := Parse("settings.json", []byte(`{"hooks":{"PreToolUse":[{"matcher":"`+matcher+`","hooks":[{"type":"command","command":"exit 0"}]}]}}`))
	if err != nil {
		b.Fatal(err)
	}
	l := &Link{Name: "c", Hooks: h, Env: []string{"PATH=" + os.Getenv("PATH")}, ProjectDir: b.TempDir()}
	c := hook.NewChain(hook.Options{})
	c.Set(hook.Table{contract.HookBeforeToolCall: {{Link: l, Subs: l.Subscriptions()}}})
	return c
}

// BenchmarkCommandHook: the added cost of one Claude command hook on a
// tool call — a shell process per event, as Claude Code runs it.
func BenchmarkCommandHook(b *testing.B) {
	c := benchChain(b, "Bash")
	in := json.RawMessage(`{"command":"ls"}`)
	for b.Loop() {
		c.BeforeToolCall(context.Background(), "bash", "bash", in, "s", nil)
	}
}

// BenchmarkCommandHookNotMatched: a call the hook's matcher does not
// select costs no process and no payload.
func BenchmarkCommandHookNotMatched(b *testing.B) {
	c := benchChain(b, "Write")
	in := json.RawMessage(`{"command":"ls"}`)
	b.ReportAllocs()
	for b.Loop() {
		c.BeforeToolCall(context.Background(), "bash", "bash", in, "s", nil)
	}
}

// BenchmarkHTTPHook: the added cost of one Claude http hook on a tool
// call, against a loopback server answering {} — no process, one POST
// on a kept-alive connection.
func BenchmarkHTTPHook(b *testing.B) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		_, _ = w.Write([]byte("{}"))
	}))
	defer srv.Close()
	h, _, err := Parse("settings.json", []byte(`{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"http","url":"`+srv.URL+`/pre"}]}]}}`))
	if err != nil {
		b.Fatal(err)
	}
	l := &Link{Name: "c", Hooks: h, ProjectDir: b.TempDir()}
	c := hook.NewChain(hook.Options{})
	c.Set(hook.Table{contract.HookBeforeToolCall: {{Link: l, Subs: l.Subscriptions()}}})
	in := json.RawMessage(`{"command":"ls"}`)
	b.ReportAllocs()
	for b.Loop() {
		c.BeforeToolCall(context.Background(), "bash", "bash", in, "s", nil)
	}
}

// BenchmarkCatDevNullHook: one `cat > /dev/null` command hook run (issue
// 37's figure), in synaps's interpreter and, as before, through bash -c.
func BenchmarkCatDevNullHook(b *testing.B) {
	c := Command{Line: "cat > /dev/null", Dir: b.TempDir(), Env: []string{"PATH=" + os.Getenv("PATH")}}
	stdin := []byte(`{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}`)
	for _, way := range []struct {
		name  string
		shell bool
	}{{"inprocess", false}, {"bash", true}} {
		b.Run(way.name, func(b *testing.B) {
			forceShell = way.shell
			defer func() { forceShell = false }()
			b.ReportAllocs()
			for b.Loop() {
				if r := Exec(context.Background(), c, stdin); r.ExitCode != 0 || r.StartErr != nil {
					b.Fatal(r)
				}
			}
		})
	}
}
