package mcp

import (
	"encoding/json"
	"io"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// A stdio server that prints noise on stdout and answers one call with a
// 17 MiB reply stays up: the noise is skipped (and kept with its stderr),
// the oversize call is a tool error naming the limit, the next call works.
func TestRoughStdioServer(t *testing.T) {
	m, reg := start(t, Options{}, testServer(t, "r", "rough", nil))
	if st := statusOf(t, m, "r"); st.State != StateReady {
		t.Fatalf("state %s (%s): the banner on stdout must not fail the server", st.State, st.Err)
	}
	if res := run(t, reg, "mcp__r__noise", `{}`); res.Output != "after noise" || res.IsError {
		t.Errorf("noise: %+v", res)
	}
	res := run(t, reg, "mcp__r__big", `{"bytes":17825792}`)
	if !res.IsError || !strings.Contains(res.Output, "MCP server r: ") || !strings.Contains(res.Output, "is over synaps's limit of 16 MiB for one MCP message") {
		t.Errorf("big: %q (error %v); want a tool error naming the limit", clip(res.Output, 300), res.IsError)
	}
	if res := run(t, reg, "mcp__r__echo", `{"text":"still here"}`); res.Output != "echo: still here" {
		t.Errorf("echo after the oversize reply: %+v", res)
	}
	if res := run(t, reg, "mcp__r__big", `{"bytes":1000}`); res.Output != strings.Repeat("x", 1000) {
		t.Errorf("a small big: %d bytes", len(res.Output))
	}
	st := statusOf(t, m, "r")
	if st.State != StateReady {
		t.Fatalf("state %s (%s) after the rough calls", st.State, st.Err)
	}
	m.mu.Lock()
	tail := m.servers[0].stderr.Lines()
	m.mu.Unlock()
	want := []string{
		"synaps: stdout line that is not JSON-RPC, skipped: rough server listening on stdio",
		"synaps: stdout line that is not JSON-RPC, skipped: DEBUG: handling the noise tool",
		"synaps: stdout line that is not JSON-RPC, skipped: {not json at all",
		// The line's size depends on how the SDK writes the reply.
		"synaps: the server's message of 17.0 MiB (N bytes) is over synaps's limit of 16 MiB for one MCP message; its request got an error instead",
	}
	if len(tail) == len(want) {
		tail[3] = regexp.MustCompile(`\(\d+ bytes\)`).ReplaceAllString(tail[3], "(N bytes)")
	}
	if d := cmp.Diff(want, tail); d != "" {
		t.Errorf("stderr tail (-want +got):\n%s", d)
	}
}

func TestLineFilter(t *testing.T) {
	big := `{"result":{"content":[{"type":"text","text":"` + strings.Repeat(`a\"}{,`, 20) + `"}],"id":"inner"},"jsonrpc":"2.0","id":7}`
	tests := []struct {
		name, in string
		limit    int
		out      string
		noise    []string
	}{
		{name: "json passes", in: "{\"id\":1}\n[{\"id\":2}]\r\n", limit: 100, out: "{\"id\":1}\n[{\"id\":2}]\n"},
		{name: "blank lines", in: "\n  \n{\"id\":1}\n", limit: 100, out: "{\"id\":1}\n"},
		{name: "noise", in: "hello\n{\"id\":1}\n{broken\n", limit: 100, out: "{\"id\":1}\n",
			noise: []string{"stdout line that is not JSON-RPC, skipped: hello", "stdout line that is not JSON-RPC, skipped: {broken"}},
		{name: "last line without newline", in: "{\"id\":1}", limit: 100, out: "{\"id\":1}\n"},
		{name: "oversize, id after the result", in: big + "\n{\"id\":8}\n", limit: 64,
			out:   `{"jsonrpc":"2.0","id":7,"error":{"code":-32603,"message":"the server's message of ` + itoa(len(big)+1) + ` bytes is over synaps's limit of 64 bytes for one MCP message (the server stays up: ask the tool for less, e.g. a narrower query or a page of the result)"}}` + "\n{\"id\":8}\n",
			noise: []string{"the server's message of " + itoa(len(big)+1) + " bytes is over synaps's limit of 64 bytes for one MCP message; its request got an error instead"}},
		{name: "oversize string id first", in: `{"id":"a\"b","result":"` + strings.Repeat("z", 100) + "\"}\n", limit: 64,
			out:   `{"jsonrpc":"2.0","id":"a\"b","error":`,
			noise: []string{"the server's message of 126 bytes is over synaps's limit of 64 bytes for one MCP message; its request got an error instead"}},
		{name: "oversize notification", in: `{"method":"x","params":"` + strings.Repeat("z", 100) + "\"}\n{\"id\":1}\n", limit: 64, out: "{\"id\":1}\n",
			noise: []string{"the server's message of 127 bytes is over synaps's limit of 64 bytes for one MCP message; it named no request id, so it was dropped"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var noise []string
			f := newLineFilter(strings.NewReader(tt.in), tt.limit, func(s string) { noise = append(noise, s) })
			got, err := io.ReadAll(f)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(string(got), tt.out) || (!strings.HasSuffix(tt.out, ":") && string(got) != tt.out) {
				t.Errorf("out:\n%s\nwant:\n%s", got, tt.out)
			}
			if d := cmp.Diff(tt.noise, noise); d != "" {
				t.Errorf("noise (-want +got):\n%s", d)
			}
		})
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// The id scanner finds the top-level id wherever it is, never one nested
// in the result or inside a string, in any chunking.
func TestIDScanner(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{"jsonrpc":"2.0","id":5,"result":{}}`, `5`},
		{`{"result":{"id":"nested","s":"\"id\":9,"},"jsonrpc":"2.0","id":"x-1"}`, `"x-1"`},
		{`{"result":[{"id":1}],"id" : -3 }`, `-3`},
		{`{"method":"notifications/x","params":{"id":4}}`, ``},
		{`{"id":{"not":"an id"},"result":1}`, ``},
		{`not json {"id":1}`, ``},
	}
	for _, tt := range tests {
		for _, step := range []int{1, 3, 1000} {
			var s idScanner
			for i := 0; i < len(tt.in); i += step {
				s.feed([]byte(tt.in[i:min(i+step, len(tt.in))]))
			}
			if got := string(s.id()); got != tt.want {
				t.Errorf("%s (chunks of %d): id %q, want %q", tt.in, step, got, tt.want)
			}
		}
	}
}

// BenchmarkLineFilter measures what filtering costs every message of a
// stdio server: a line scan and json.Valid.
func BenchmarkLineFilter(b *testing.B) {
	for _, size := range []int{1 << 10, 1 << 20} {
		line := []byte(`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"` + strings.Repeat("x", size) + `"}]}}` + "\n")
		b.Run(itoa(size), func(b *testing.B) {
			b.SetBytes(int64(len(line)))
			b.ReportAllocs()
			f := newLineFilter(&repeatReader{line: line}, 0, nil)
			buf := make([]byte, 64<<10)
			for b.Loop() {
				for n := 0; n < len(line); {
					k, err := f.Read(buf)
					if err != nil {
						b.Fatal(err)
					}
					n += k
				}
			}
		})
	}
}

// repeatReader reads line again and again.
type repeatReader struct {
	line []byte
	off  int
}

func (r *repeatReader) Read(p []byte) (int, error) {
	n := copy(p, r.line[r.off:])
	r.off = (r.off + n) % len(r.line)
	return n, nil
}

// A tool's inputSchema reaches the model as an object schema: none or one
// without a type becomes type "object"; another type, or no object at
// all, leaves the tool out with an error saying why.
func TestModelSchema(t *testing.T) {
	tests := []struct {
		in   any
		want string // "" : left out
		err  string
	}{
		{nil, `{"type":"object"}`, ""},
		{map[string]any{"type": "object", "properties": map[string]any{}}, `{"properties":{},"type":"object"}`, ""},
		{map[string]any{"properties": map[string]any{"q": map[string]any{"type": "string"}}}, `{"properties":{"q":{"type":"string"}},"type":"object"}`, ""},
		{map[string]any{}, `{"type":"object"}`, ""},
		{map[string]any{"type": "string"}, "", `left out: its inputSchema has type "string"; the model's API takes object schemas only`},
		{map[string]any{"type": []string{"object", "null"}}, "", `left out: its inputSchema has type ["object","null"]`},
		{[]any{1}, "", `left out: its inputSchema [1] is not a JSON object`},
		{true, "", `left out: its inputSchema true is not a JSON object`},
	}
	for _, tt := range tests {
		got, err := modelSchema(tt.in)
		if tt.want != "" {
			if err != nil || string(got) != tt.want {
				t.Errorf("%v: %s, %v; want %s", tt.in, got, err, tt.want)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tt.err) {
			t.Errorf("%v: %s, %v; want an error with %q", tt.in, got, err, tt.err)
		}
	}
}
