package extension

// These tests hold the extension documentation in docs/extensions/ to the
// runtime, so the two cannot drift apart:
//
//   - TestContractJSONMatchesRuntime: contract.json equals the Go tables in
//     contract.go (and the limits the framer and the tool registry enforce).
//   - TestDocExamplesDecode: every ```json block in the docs parses, and the
//     runtime's own decoders accept (or, where the docs say so, reject) it.
//     The line before each block is an HTML comment that says what the
//     block is; see docMarkers.
//   - TestDocExamplesMatchFiles: blocks marked file=PATH are byte for byte
//     the file at PATH (the tutorial's listings of hello-ext).
//   - TestContractNamesAppearInDocs: every hook, permission and method is
//     documented.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/synaps-cli/synaps/internal/contract"
	"github.com/synaps-cli/synaps/internal/hook"
	"github.com/synaps-cli/synaps/internal/jsonrpc"
	"github.com/synaps-cli/synaps/internal/plugin"
	"github.com/synaps-cli/synaps/internal/tool"
)

// docsDir is docs/extensions, relative to this package; repoRoot is the
// module root.
const (
	docsDir  = "../../docs/extensions"
	repoRoot = "../.."
)

// contractDoc is the shape of docs/extensions/contract.json. It is decoded
// with unknown fields disallowed, so every key in the file is checked here.
type contractDoc struct {
	Comment                 string            `json:"$comment"`
	ProtocolVersion         int               `json:"protocol_version"`
	Hooks                   []contractHook    `json:"hooks"`
	Permissions             []string          `json:"permissions"`
	PerHookPermissionPrefix string            `json:"per_hook_permission_prefix"`
	ReservedPermissions     []string          `json:"reserved_permissions"`
	ActionPermissions       map[string]string `json:"action_permissions"`
	Actions                 []string          `json:"actions"`
	ActionAliases           map[string]string `json:"action_aliases"`
	Matchers                []string          `json:"matchers"`
	EventKeys               []string          `json:"event_keys"`
	Methods                 []contractMethod  `json:"methods"`
	Limits                  contractLimits    `json:"limits"`
	ToolFields              []string          `json:"tool_fields"`
}

type contractHook struct {
	Name       string   `json:"name"`
	Permission string   `json:"permission"`
	ToolFilter bool     `json:"tool_filter"`
	Actions    []string `json:"actions"`
}

type contractMethod struct {
	Name              string `json:"name"`
	DefaultDeadlineMS int64  `json:"default_deadline_ms"`
}

type contractLimits struct {
	MaxHeaderLineBytes       int `json:"max_header_line_bytes"`
	MaxBodyBytes             int `json:"max_body_bytes"`
	MaxToolOutputInHookBytes int `json:"max_tool_output_in_hook_bytes"`
	MaxReplaceOutputBytes    int `json:"max_replace_output_bytes"`
	MaxToolNameLength        int `json:"max_tool_name_length"`
	MaxSendDepth             int `json:"max_send_depth"`
	MaxSendBytes             int `json:"max_send_bytes"`
}

func loadContractDoc(t *testing.T) contractDoc {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(docsDir, "contract.json"))
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var doc contractDoc
	if err := dec.Decode(&doc); err != nil {
		t.Fatalf("json: %v (a key this test does not check is an error: add it to contractDoc and compare it)", err)
	}
	if dec.More() {
		t.Fatal("json: data after the top-level object")
	}
	return doc
}

// allActions is every action the runtime knows: continue, then each action
// of the hook table in order of first appearance, then any action that is
// only named in ActionPermissions.
func allActions() []string {
	out := []string{string(contract.ActionContinue)}
	for _, h := range contract.Hooks {
		for _, a := range h.Actions {
			if !slices.Contains(out, string(a)) {
				out = append(out, string(a))
			}
		}
	}
	var extra []string
	for a := range contract.ActionPermissions {
		if !slices.Contains(out, string(a)) {
			extra = append(extra, string(a))
		}
	}
	sort.Strings(extra)
	return append(out, extra...)
}

// wireEventKeys are the JSON keys of the hook.handle params, read off an
// encoded event in the order the encoder writes them (every key is always
// present, null where it does not apply).
func wireEventKeys() []string {
	dec := json.NewDecoder(bytes.NewReader((&hook.Event{}).Encode(contract.MaxToolOutputHook)))
	var keys []string
	if _, err := dec.Token(); err != nil { // '{'
		panic(err)
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			panic(err)
		}
		keys = append(keys, tok.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			panic(err)
		}
	}
	return keys
}

// expectedContract builds contract.json's content from the Go tables.
func expectedContract() contractDoc {
	want := contractDoc{
		ProtocolVersion:         contract.ProtocolVersion,
		Permissions:             slices.Clone(contract.GroupPermissions),
		PerHookPermissionPrefix: contract.HookPermissionPrefix,
		ReservedPermissions:     slices.Clone(contract.ReservedPermissions),
		ActionPermissions:       map[string]string{},
		Actions:                 allActions(),
		Matchers:                slices.Clone(contract.MatcherKeys),
		ToolFields:              slices.Clone(contract.ToolFields),
		EventKeys:               wireEventKeys(),
		Limits: contractLimits{
			MaxHeaderLineBytes:       contract.MaxHeaderLine,
			MaxBodyBytes:             contract.DefaultMaxBody,
			MaxToolOutputInHookBytes: contract.MaxToolOutputHook,
			MaxReplaceOutputBytes:    contract.MaxReplaceOutput,
			MaxToolNameLength:        contract.MaxToolNameLen,
			MaxSendDepth:             contract.MaxSendDepth,
			MaxSendBytes:             contract.MaxSendBytes,
		},
	}
	for _, h := range contract.Hooks {
		actions := []string{string(contract.ActionContinue)}
		for _, a := range h.Actions {
			actions = append(actions, string(a))
		}
		want.Hooks = append(want.Hooks, contractHook{Name: h.Name, Permission: h.Permission, ToolFilter: h.ToolFilter, Actions: actions})
	}
	for a, p := range contract.ActionPermissions {
		want.ActionPermissions[string(a)] = p
	}
	for name, d := range contract.MethodDeadlines {
		want.Methods = append(want.Methods, contractMethod{Name: name, DefaultDeadlineMS: d.Milliseconds()})
	}
	sortMethods(want.Methods)
	return want
}

func sortMethods(ms []contractMethod) {
	sort.Slice(ms, func(i, j int) bool { return ms[i].Name < ms[j].Name })
}

func TestContractJSONMatchesRuntime(t *testing.T) {
	doc := loadContractDoc(t)
	if doc.Comment == "" {
		t.Error(`json: "$comment" should say what the file is and which test keeps it true`)
	}
	want := expectedContract()

	// The tables themselves. Methods come from a map, so compare them by
	// name; aliases are checked against the decoder below.
	got := doc
	got.Comment, got.ActionAliases = "", nil
	got.Methods = slices.Clone(doc.Methods)
	sortMethods(got.Methods)
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("docs/extensions/contract.json differs from the runtime's tables in contract.go (-runtime +contract.json):\n%s", d)
	}

	// The tool fields are the ones the declaration decoder reads.
	var tags []string
	for f := range reflect.TypeFor[ToolDecl]().Fields() {
		tags = append(tags, strings.Split(f.Tag.Get("json"), ",")[0])
	}
	if d := cmp.Diff(contract.ToolFields, tags); d != "" {
		t.Errorf("contract.ToolFields differs from the json keys of ToolDecl (-contract +ToolDecl):\n%s", d)
	}

	// The copies of the wire limits elsewhere in the runtime agree with
	// contract.go, so contract.json describes what is enforced.
	if contract.MaxHeaderLine != jsonrpc.MaxHeaderLine {
		t.Errorf("contract.MaxHeaderLine = %d but the framer enforces jsonrpc.MaxHeaderLine = %d", contract.MaxHeaderLine, jsonrpc.MaxHeaderLine)
	}
	if contract.DefaultMaxBody != jsonrpc.DefaultMaxBody {
		t.Errorf("contract.DefaultMaxBody = %d but the framer enforces jsonrpc.DefaultMaxBody = %d", contract.DefaultMaxBody, jsonrpc.DefaultMaxBody)
	}
	if contract.MaxToolNameLen != tool.MaxNameLen {
		t.Errorf("contract.MaxToolNameLen = %d but the registry cuts model-facing names at tool.MaxNameLen = %d", contract.MaxToolNameLen, tool.MaxNameLen)
	}

	// Every action in the contract is one the result decoder understands,
	// and every alias decodes to the action the contract says.
	for _, a := range doc.Actions {
		res, err := hook.DecodeResult(sampleResult(a))
		if err != nil || string(res.Action) != a {
			t.Errorf("contract action %q: hook.DecodeResult(%s) = %q, %v", a, sampleResult(a), res.Action, err)
		}
	}
	if len(doc.ActionAliases) == 0 {
		t.Error(`json: "action_aliases" is empty`)
	}
	for alias, target := range doc.ActionAliases {
		res, err := hook.DecodeResult(sampleResult(alias))
		if err != nil || string(res.Action) != target {
			t.Errorf("contract alias %q -> %q: hook.DecodeResult gives %q, %v", alias, target, res.Action, err)
		}
	}
	if _, err := hook.DecodeResult(json.RawMessage(`{"action":"no_such_action"}`)); err == nil {
		t.Error("hook.DecodeResult accepts an action the contract does not list")
	}

	// Permissions behave as listed: each hook is unlocked by its group
	// permission and by prefix+name; group permissions load; reserved
	// ones and unknown ones are load errors.
	for _, h := range doc.Hooks {
		for _, p := range []string{h.Permission, doc.PerHookPermissionPrefix + h.Name} {
			if !contract.NewPermissions([]string{p}).PermitsHook(h.Name) {
				t.Errorf("permission %q does not unlock hook %s", p, h.Name)
			}
			if _, err := plugin.ParseManifest("plugin.json", manifestWithPermission(p)); err != nil {
				t.Errorf("permission %q: %v", p, err)
			}
		}
	}
	for _, p := range doc.Permissions {
		if _, err := plugin.ParseManifest("plugin.json", manifestWithPermission(p)); err != nil {
			t.Errorf("permission %q: %v", p, err)
		}
	}
	for _, p := range append(slices.Clone(doc.ReservedPermissions), "tools.no_such_permission", doc.PerHookPermissionPrefix+"no_such_hook") {
		if _, err := plugin.ParseManifest("plugin.json", manifestWithPermission(p)); err == nil {
			t.Errorf("permission %q loads, but the contract says it is refused", p)
		}
	}
}

// sampleResult is a well-formed hook result with the given action.
func sampleResult(action string) json.RawMessage {
	b, _ := json.Marshal(map[string]any{
		"action": action, "reason": "r", "message": "m",
		"input": map[string]any{"command": "ls"}, "output": "o", "content": "c",
	})
	return b
}

func manifestWithPermission(p string) []byte {
	b, _ := json.Marshal(map[string]any{
		"name": "p",
		"extension": map[string]any{
			"entry_point": "python3 main.py", "extension_protocol_version": 1, "permissions": []string{p},
		},
	})
	return b
}

// --- documentation examples ------------------------------------------------

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
		got := NormalizeToolResult(result)
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
		if isNull(fields[k]) {
			return nil
		}
		s := str(k)
		return &s
	}
	raw := func(k string) json.RawMessage {
		if isNull(fields[k]) {
			return nil
		}
		return fields[k]
	}
	ev := hook.Event{
		Kind: str("kind"), ToolName: str("tool_name"), ToolRuntimeName: str("tool_runtime_name"),
		ToolInput: raw("tool_input"), ToolOutput: strPtr("tool_output"), Message: strPtr("message"),
		SessionID: str("session_id"), Transcript: raw("transcript"), Data: raw("data"),
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

// TestContractNamesAppearInDocs checks that each hook, permission and
// method of the contract is documented where readers look for it.
func TestContractNamesAppearInDocs(t *testing.T) {
	read := func(name string) string {
		data, err := os.ReadFile(filepath.Join(docsDir, name))
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	hooks, perms, protocol := read("hooks.md"), read("permissions.md"), read("protocol.md")
	for _, h := range contract.Hooks {
		if !strings.Contains(hooks, "## `"+h.Name+"`") {
			t.Errorf("hooks.md has no section \"## `%s`\"", h.Name)
		}
		if !strings.Contains(perms, "`"+contract.HookPermissionPrefix+h.Name+"`") {
			t.Errorf("permissions.md does not mention `%s%s`", contract.HookPermissionPrefix, h.Name)
		}
	}
	for _, p := range append(slices.Clone(contract.GroupPermissions), contract.ReservedPermissions...) {
		if !strings.Contains(perms, "`"+p+"`") {
			t.Errorf("permissions.md does not mention `%s`", p)
		}
	}
	for name := range contract.MethodDeadlines {
		if !strings.Contains(protocol, "`"+name+"`") {
			t.Errorf("protocol.md does not mention method `%s`", name)
		}
	}
}
