package contract_test

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
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/synaps-cli/synaps/internal/contract"
	"github.com/synaps-cli/synaps/internal/extension"
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
	ProtocolVersions        []int             `json:"protocol_versions"`
	Hooks                   []contractHook    `json:"hooks"`
	Permissions             []string          `json:"permissions"`
	PerHookPermissionPrefix string            `json:"per_hook_permission_prefix"`
	ReservedPermissions     []string          `json:"reserved_permissions"`
	RegistrationPermissions []string          `json:"registration_permissions"`
	UnsupportedPermissions  []string          `json:"unsupported_permissions"`
	HostMethods             map[string]string `json:"host_methods"`
	PermissionDeniedCode    int               `json:"permission_denied_code"`
	HostNotifications       []string          `json:"host_notifications"`
	ExtensionNotifications  []string          `json:"extension_notifications"`
	IgnoredNotifications    []string          `json:"ignored_notifications"`
	ActionPermissions       map[string]string `json:"action_permissions"`
	Actions                 []string          `json:"actions"`
	ActionAliases           map[string]string `json:"action_aliases"`
	Matchers                []string          `json:"matchers"`
	EventKeys               []string          `json:"event_keys"`
	Methods                 []contractMethod  `json:"methods"`
	Limits                  contractLimits    `json:"limits"`
	ToolFields              []string          `json:"tool_fields"`
	// ManifestSandboxKeys are the keys of a manifest's top-level
	// "sandbox" section (both dialects).
	ManifestSandboxKeys []string `json:"manifest_sandbox_keys"`
}

type contractHook struct {
	Name       string   `json:"name"`
	Permission string   `json:"permission"`
	ToolFilter bool     `json:"tool_filter"`
	Actions    []string `json:"actions"`
	// MinProtocol is omitted for hooks every protocol version has.
	MinProtocol int `json:"min_protocol,omitempty"`
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
		ProtocolVersions:        slices.Clone(contract.ProtocolVersions),
		Permissions:             slices.Clone(contract.GroupPermissions),
		PerHookPermissionPrefix: contract.HookPermissionPrefix,
		ReservedPermissions:     slices.Clone(contract.ReservedPermissions),
		RegistrationPermissions: slices.Clone(contract.RegistrationPermissions),
		HostMethods:             maps.Clone(contract.HostMethods),
		PermissionDeniedCode:    contract.CodePermissionDenied,
		HostNotifications:       []string{contract.NotifyConfigChanged},
		ExtensionNotifications:  append([]string{contract.NotifyLog, contract.NotifyNotify}, contract.CommandNotifications...),
		ActionPermissions:       map[string]string{},
		Actions:                 allActions(),
		Matchers:                slices.Clone(contract.MatcherKeys),
		ToolFields:              slices.Clone(contract.ToolFields),
		EventKeys:               wireEventKeys(),
		ManifestSandboxKeys:     slices.Clone(plugin.SandboxKeys),
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
		min := h.MinProtocol
		if min <= 1 {
			min = 0
		}
		want.Hooks = append(want.Hooks, contractHook{Name: h.Name, Permission: h.Permission, ToolFilter: h.ToolFilter, Actions: actions, MinProtocol: min})
	}
	for p := range contract.UnsupportedPermissions {
		want.UnsupportedPermissions = append(want.UnsupportedPermissions, p)
	}
	sort.Strings(want.UnsupportedPermissions)
	for n := range contract.UnsupportedNotifications {
		want.IgnoredNotifications = append(want.IgnoredNotifications, n)
	}
	sort.Strings(want.IgnoredNotifications)
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
	for f := range reflect.TypeFor[extension.ToolDecl]().Fields() {
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
		"input": map[string]any{"command": "ls"}, "output": "o", "content": "c", "phase": "p",
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
	for name, perm := range contract.HostMethods {
		if !strings.Contains(protocol, "`"+name+"`") {
			t.Errorf("protocol.md does not mention the request `%s` an extension may send", name)
		}
		if perm != "" && !strings.Contains(perms, "`"+perm+"`") {
			t.Errorf("permissions.md does not mention `%s`", perm)
		}
	}
	for _, n := range append([]string{contract.NotifyConfigChanged, contract.NotifyLog, contract.NotifyNotify}, contract.CommandNotifications...) {
		if !strings.Contains(protocol, "`"+n+"`") {
			t.Errorf("protocol.md does not mention the notification `%s`", n)
		}
	}
}
