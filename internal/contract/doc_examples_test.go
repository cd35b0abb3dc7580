package contract_test

// The documentation examples: TestDocExamplesDecode and
// TestDocExamplesMatchFiles (see contract_doc_test.go).

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/synaps-cli/synaps/internal/contract"
	"github.com/synaps-cli/synaps/internal/extension"
	"github.com/synaps-cli/synaps/internal/hook"
	"github.com/synaps-cli/synaps/internal/plugin"
)

// docMarkers are the kinds a block's marker comment may name, with what the
// test checks. A marker is the last non-blank line before the opening fence:
//
//	<!-- KIND [HOOK] [error] [=> "expected text"] [file=PATH] -->
var docMarkers = map[string]string{
	"json":                "parses as JSON",
	"message":             `a JSON-RPC 2.0 message: an object with "jsonrpc": "2.0"`,
	"manifest":            "ParseManifest accepts it with no error and no warning",
	"manifest-invalid":    "ParseManifest rejects it",
	"subscriptions":       "DecodeSubscriptions accepts the array and each subscription passes Check",
	"hook-event":          "a hook.handle request (or its params) exactly as the runtime encodes that event; HOOK names the hook",
	"hook-result":         "a hook.handle response (or its result) that hook.DecodeResult accepts; HOOK, when given, must allow its action",
	"hook-result-invalid": "a hook.handle response (or its result) that hook.DecodeResult rejects",
	"tool-result":         `a tool.call response (or its result); "=> text" is what NormalizeToolResult must make of it, "error" that it is an error`,
}

// docBlock is one fenced block of a markdown file.
type docBlock struct {
	file   string // base name, for messages
	line   int    // 1-based line of the opening fence
	lang   string
	marker string // the marker comment's text, "" when none
	body   string
}

func (b docBlock) where() string { return fmt.Sprintf("%s:%d", b.file, b.line) }

var (
	fenceRE  = regexp.MustCompile("^\\s*(```+|~~~+)\\s*([A-Za-z0-9_+-]*)\\s*$")
	markerRE = regexp.MustCompile(`^<!--\s*(.*?)\s*-->$`)
)

// docBlocks returns the fenced blocks of a markdown file.
func docBlocks(t *testing.T, path string) []docBlock {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n")
	var out []docBlock
	for i := 0; i < len(lines); i++ {
		m := fenceRE.FindStringSubmatch(lines[i])
		if m == nil {
			continue
		}
		b := docBlock{file: filepath.Base(path), line: i + 1, lang: m[2]}
		for j := i - 1; j >= 0; j-- {
			if s := strings.TrimSpace(lines[j]); s != "" {
				if mm := markerRE.FindStringSubmatch(s); mm != nil {
					b.marker = mm[1]
				}
				break
			}
		}
		var body []string
		j := i + 1
		for ; j < len(lines); j++ {
			if strings.TrimSpace(lines[j]) == m[1] {
				break
			}
			body = append(body, lines[j])
		}
		if j == len(lines) {
			t.Fatalf("%s:%d: code fence is never closed", b.file, b.line)
		}
		b.body = strings.Join(body, "\n")
		out = append(out, b)
		i = j
	}
	return out
}

// marker is a parsed marker comment.
type marker struct {
	kind    string
	hook    string
	isError bool
	expect  *string
	file    string
}

func parseMarker(s string) (marker, error) {
	var m marker
	s, expect, hasExpect := strings.Cut(s, "=>")
	if hasExpect {
		var text string
		if err := json.Unmarshal([]byte(strings.TrimSpace(expect)), &text); err != nil {
			return m, fmt.Errorf("the text after => must be a JSON string: %v", err)
		}
		m.expect = &text
	}
	for i, f := range strings.Fields(s) {
		switch {
		case strings.HasPrefix(f, "file="):
			m.file = strings.TrimPrefix(f, "file=")
		case i == 0:
			m.kind = f
		case f == "error":
			m.isError = true
		default:
			if _, ok := contract.LookupHook(f); !ok {
				return m, fmt.Errorf("unknown word %q in marker (expected a hook name, error, => or file=)", f)
			}
			m.hook = f
		}
	}
	return m, nil
}

// markdownDocs lists the markdown files of docs/extensions.
func markdownDocs(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(docsDir, "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func TestDocExamplesDecode(t *testing.T) {
	files := markdownDocs(t)
	for _, want := range []string{"hooks.md", "protocol.md"} {
		if !slices.Contains(files, filepath.Join(docsDir, want)) {
			t.Errorf("docs/extensions/%s is missing", want)
		}
	}
	// eventsSeen and resultsSeen record, per hook, the line of the first
	// example request and response in hooks.md.
	eventsSeen, resultsSeen := map[string]int{}, map[string]int{}
	for _, path := range files {
		for _, b := range docBlocks(t, path) {
			if b.lang != "json" {
				continue
			}
			if b.marker == "" {
				t.Errorf("%s: json block without a marker comment on the line before it; use one of %s", b.where(), markerKinds())
				continue
			}
			m, err := parseMarker(b.marker)
			if err != nil {
				t.Errorf("%s: marker %q: %v", b.where(), b.marker, err)
				continue
			}
			if _, ok := docMarkers[m.kind]; !ok {
				t.Errorf("%s: unknown marker kind %q; use one of %s", b.where(), m.kind, markerKinds())
				continue
			}
			if !json.Valid([]byte(b.body)) {
				var v any
				err := json.Unmarshal([]byte(b.body), &v)
				t.Errorf("%s: not valid JSON: %v", b.where(), err)
				continue
			}
			checkDocExample(t, b, m)
			if b.file == "hooks.md" && m.hook != "" {
				seen := resultsSeen
				if m.kind == "hook-event" {
					seen = eventsSeen
				}
				if _, ok := seen[m.hook]; !ok {
					seen[m.hook] = b.line
				}
			}
		}
	}
	for _, h := range contract.HookNames() {
		ev, okEv := eventsSeen[h]
		res, okRes := resultsSeen[h]
		switch {
		case !okEv || !okRes:
			t.Errorf("hooks.md: hook %s needs an example request (<!-- hook-event %s -->) and response (<!-- hook-result %s -->)", h, h, h)
		case ev > res:
			t.Errorf("hooks.md: hook %s: the example response (line %d) comes before the request (line %d)", h, res, ev)
		}
	}
}

func markerKinds() string {
	kinds := make([]string, 0, len(docMarkers))
	for k := range docMarkers {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	return strings.Join(kinds, ", ")
}

// checkDocExample applies the marker's check to one block.
func checkDocExample(t *testing.T, b docBlock, m marker) {
	t.Helper()
	data := []byte(b.body)
	fail := func(format string, args ...any) {
		t.Errorf("%s (%s): %s", b.where(), m.kind, fmt.Sprintf(format, args...))
	}
	switch m.kind {
	case "json":
	case "message":
		if msg, ok := jsonrpcMessage(data); !ok {
			fail(`not a JSON-RPC 2.0 message (an object with "jsonrpc": "2.0")`)
		} else if _, hasID := msg["id"]; !hasID && msg["method"] == nil {
			fail("a message needs a method or an id")
		}
	case "manifest":
		man, err := plugin.ParseManifest("plugin.json", data)
		if err != nil {
			fail("ParseManifest: %v", err)
		} else if len(man.Warnings) > 0 {
			fail("ParseManifest warns: %s", strings.Join(man.Warnings, "; "))
		}
	case "manifest-invalid":
		if _, err := plugin.ParseManifest("plugin.json", data); err == nil {
			fail("the docs show this manifest as rejected, but ParseManifest accepts it")
		}
	case "subscriptions":
		subs, err := plugin.DecodeSubscriptions("plugin.json", "hooks", data)
		if err != nil {
			fail("DecodeSubscriptions: %v", err)
		}
		all := contract.NewPermissions(contract.GroupPermissions)
		for _, s := range subs {
			if err := plugin.CheckSubscription(s, all); err != nil {
				fail("subscription %+v: %v", s, err)
			}
		}
	case "hook-event":
		params := data
		if msg, ok := jsonrpcMessage(data); ok {
			if string(msg["method"]) != `"hook.handle"` {
				fail(`a hook event request must call "hook.handle", not %s`, msg["method"])
				return
			}
			if _, hasID := msg["id"]; !hasID {
				fail("a hook.handle request needs an id")
			}
			params = msg["params"]
		}
		checkHookEvent(t, b, m, params)
	case "hook-result", "hook-result-invalid":
		result := data
		if msg, ok := jsonrpcMessage(data); ok {
			if _, hasID := msg["id"]; !hasID {
				fail("a response needs an id")
			}
			result = msg["result"]
		}
		res, err := hook.DecodeResult(result)
		if m.kind == "hook-result-invalid" {
			if err == nil {
				fail("the docs show this result as rejected, but hook.DecodeResult accepts it as %q", res.Action)
			}
			return
		}
		if err != nil {
			fail("hook.DecodeResult: %v", err)
			return
		}
		if m.hook != "" {
			if spec, _ := contract.LookupHook(m.hook); !spec.Allows(res.Action) {
				fail("hook %s does not allow action %q", m.hook, res.Action)
			}
		}
	case "tool-result":
		result := data
		if msg, ok := jsonrpcMessage(data); ok {
			if _, hasID := msg["id"]; !hasID {
				fail("a response needs an id")
			}
			result = msg["result"]
			if result == nil {
				return // an error response: the runtime reports it as a failed call
			}
		}
		got := extension.NormalizeToolResult(result)
		if m.expect != nil && got.Output != *m.expect {
			fail("NormalizeToolResult gives output %q, the docs say %q", got.Output, *m.expect)
		}
		if got.IsError != m.isError {
			fail("NormalizeToolResult gives is_error %v, the marker says %v", got.IsError, m.isError)
		}
	}
}

// jsonrpcMessage decodes data as a JSON-RPC 2.0 message; ok is false when
// it is not an object with "jsonrpc": "2.0".
func jsonrpcMessage(data []byte) (map[string]json.RawMessage, bool) {
	var msg map[string]json.RawMessage
	if json.Unmarshal(data, &msg) != nil || msg == nil {
		return nil, false
	}
	return msg, string(msg["jsonrpc"]) == `"2.0"`
}

// checkHookEvent rebuilds the Event a documented hook.handle params object
// describes and checks that the runtime encodes that event to exactly the
// documented JSON (as values: key order and spacing aside).
func checkHookEvent(t *testing.T, b docBlock, m marker, params json.RawMessage) {
	t.Helper()
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(params, &fields); err != nil {
		t.Errorf("%s: hook event params are not an object: %v", b.where(), err)
		return
	}
	for _, k := range wireEventKeys() {
		if _, ok := fields[k]; !ok {
			t.Errorf("%s: hook event lacks key %q (every key is always present, null when it does not apply)", b.where(), k)
		}
	}
	str := func(k string) string {
		var s string
		_ = json.Unmarshal(fields[k], &s)
		return s
	}
	strPtr := func(k string) *string {
		if hook.IsNull(fields[k]) {
			return nil
		}
		s := str(k)
		return &s
	}
	raw := func(k string) json.RawMessage {
		if hook.IsNull(fields[k]) {
			return nil
		}
		return fields[k]
	}
	ev := hook.Event{
		Kind: str("kind"), ToolName: str("tool_name"), ToolRuntimeName: str("tool_runtime_name"),
		ToolInput: raw("tool_input"), ToolOutput: strPtr("tool_output"), Message: strPtr("message"),
		SessionID: str("session_id"), Transcript: raw("transcript"), Data: raw("data"),
	}
	if _, ok := fields["agent_id"]; ok {
		ev.Subagent = &hook.Subagent{ID: str("agent_id"), Type: str("agent_type"), ParentToolUseID: str("parent_tool_use_id")}
	}
	if _, ok := contract.LookupHook(ev.Kind); !ok {
		t.Errorf("%s: unknown hook kind %q", b.where(), ev.Kind)
	}
	if m.hook != "" && ev.Kind != m.hook {
		t.Errorf("%s: marker says %s but the event's kind is %q", b.where(), m.hook, ev.Kind)
	}
	var want, got any
	_ = json.Unmarshal(params, &want)
	if err := json.Unmarshal(ev.Encode(contract.MaxToolOutputHook), &got); err != nil {
		t.Fatalf("%s: the runtime's encoding does not decode: %v", b.where(), err)
	}
	if d := cmp.Diff(got, want); d != "" {
		t.Errorf("%s: the runtime would send different params for this event (-runtime +docs):\n%s", b.where(), d)
	}
}

// TestDocExamplesMatchFiles holds listings marked file=PATH equal to the
// file, so the tutorial shows the example extension as it is.
func TestDocExamplesMatchFiles(t *testing.T) {
	n := 0
	for _, path := range markdownDocs(t) {
		for _, b := range docBlocks(t, path) {
			if b.marker == "" {
				continue
			}
			m, err := parseMarker(b.marker)
			if err != nil || m.file == "" {
				continue
			}
			n++
			data, err := os.ReadFile(filepath.Join(repoRoot, filepath.FromSlash(m.file)))
			if err != nil {
				t.Errorf("%s: %v", b.where(), err)
				continue
			}
			want := strings.TrimRight(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n")
			if got := strings.TrimRight(b.body, "\n"); got != want {
				t.Errorf("%s: the listing differs from %s (-file +docs):\n%s", b.where(), m.file, cmp.Diff(strings.Split(want, "\n"), strings.Split(got, "\n")))
			}
		}
	}
	if n == 0 {
		t.Error("no block in docs/extensions is marked file=PATH; the tutorial should list the example's files")
	}
}
