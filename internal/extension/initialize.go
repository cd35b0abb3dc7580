package extension

// The initialize handshake's answer: what an extension declares (tools,
// hook subscriptions, providers) and what of it the permissions allow.

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/synaps-cli/synaps/internal/contract"
	"github.com/synaps-cli/synaps/internal/hook"
	"github.com/synaps-cli/synaps/internal/plugin"
	"github.com/synaps-cli/synaps/internal/plural"
)

// InitResult is what an extension answers to initialize, read tolerantly
// (DecodeInitResult).
type InitResult struct {
	ProtocolVersion *int
	Name            string
	Version         string
	Capabilities    Capabilities
	// Raw is the answer as it came, which the initialize cache keeps.
	Raw json.RawMessage
	// Warnings are what the decoder let pass but an author should hear
	// about: a capabilities value of an odd type, an extra capability
	// that asks for a permission not granted.
	Warnings []string
}

// Capabilities are the parts of the initialize result the runtime uses;
// every one may be absent, null or an empty list.
type Capabilities struct {
	Tools     json.RawMessage `json:"tools"`
	Hooks     json.RawMessage `json:"hooks"`
	Providers json.RawMessage `json:"providers"`
	// Extra is SynapsCLI's capabilities.capabilities: [{kind, name,
	// permissions?, params?}], declarations of things like audio devices.
	Extra json.RawMessage `json:"capabilities"`
}

// ExtraCapability is one entry of capabilities.capabilities.
type ExtraCapability struct {
	Kind        string          `json:"kind"`
	Name        string          `json:"name"`
	Permissions []string        `json:"permissions"`
	Params      json.RawMessage `json:"params,omitempty"`
}

// DecodeInitResult reads an initialize result as SynapsCLI does, and then
// some: unknown keys anywhere are ignored, capabilities may be absent,
// null, an object or an empty list (serde reads [] as an empty struct, and
// published plugins send it), and each list in it may be absent, null or
// empty. Only two things fail, each naming its field: a missing result
// (null, or not an object), and a protocol_version that is not a version
// this synaps speaks or is newer than the manifest's (version). A missing
// protocol_version is taken as the manifest's, with a warning.
func DecodeInitResult(raw json.RawMessage, version int) (*InitResult, error) {
	if version < contract.ProtocolVersion {
		version = contract.ProtocolVersion
	}
	var top map[string]json.RawMessage
	if hook.IsNull(raw) {
		return nil, fmt.Errorf(`result: the extension answered null; answer {"protocol_version": %d, "capabilities": {...}}`, version)
	}
	if err := json.Unmarshal(raw, &top); err != nil {
		return nil, fmt.Errorf(`result: expected an object such as {"protocol_version": %d, "capabilities": {...}}, got %s`, version, jsonKind(raw))
	}
	res := &InitResult{Raw: raw}
	if v, ok := top["protocol_version"]; ok && !hook.IsNull(v) {
		var n float64
		if err := json.Unmarshal(v, &n); err != nil || n != float64(int(n)) {
			return nil, fmt.Errorf("protocol_version: expected an integer, got %s", abbreviate(string(v)))
		}
		pv := int(n)
		switch {
		case !slices.Contains(contract.ProtocolVersions, pv):
			return nil, fmt.Errorf("protocol_version is %d, but this synaps speaks extension protocols 1 and 2", pv)
		case pv > version:
			return nil, fmt.Errorf(`protocol_version is %d, but the manifest declares protocol %d; set "protocol_version": %d in the extension object of plugin.json`, pv, version, pv)
		}
		res.ProtocolVersion = &pv
	}
	_ = json.Unmarshal(top["name"], &res.Name)
	_ = json.Unmarshal(top["version"], &res.Version)
	caps := top["capabilities"]
	switch kind := jsonKind(caps); {
	case hook.IsNull(caps), kind == "an object":
		_ = json.Unmarshal(caps, &res.Capabilities) // an object of RawMessages always decodes
	case kind == "an array":
		var items []json.RawMessage
		_ = json.Unmarshal(caps, &items)
		if len(items) > 0 {
			res.Warnings = append(res.Warnings, fmt.Sprintf("initialize result: capabilities is a list of %s, not an object; it is read as empty", plural.Count(len(items), "item")))
		}
	default:
		res.Warnings = append(res.Warnings, fmt.Sprintf("initialize result: capabilities is %s, not an object; it is read as empty", kind))
	}
	// A list that is present but empty ([] or {}) declares nothing.
	for _, f := range []*json.RawMessage{&res.Capabilities.Tools, &res.Capabilities.Hooks, &res.Capabilities.Providers, &res.Capabilities.Extra} {
		if t := strings.TrimSpace(string(*f)); t == "[]" || t == "{}" {
			*f = nil
		}
	}
	return res, nil
}

// checkExtra vets capabilities.capabilities: each entry needs a kind and
// a name, and may ask only for permissions the manifest grants. Nothing is
// refused over it (synaps has no host API for these declarations); the
// notes say what SynapsCLI would have refused.
func checkExtra(raw json.RawMessage, perms contract.Permissions) []string {
	if hook.IsNull(raw) {
		return nil
	}
	var items []ExtraCapability
	if err := json.Unmarshal(raw, &items); err != nil {
		return []string{"initialize result: capabilities.capabilities must be a list of {kind, name, permissions}; ignored"}
	}
	var notes []string
	for i, c := range items {
		if c.Kind == "" || c.Name == "" {
			notes = append(notes, fmt.Sprintf("initialize result: capabilities.capabilities[%d] needs a kind and a name", i))
		}
		for _, p := range c.Permissions {
			switch {
			case !contract.KnownPermission(p):
				notes = append(notes, fmt.Sprintf("initialize result: capabilities.capabilities[%d] (%s %s) asks for unknown permission %q", i, c.Kind, c.Name, p))
			case !perms.Has(p):
				notes = append(notes, fmt.Sprintf("initialize result: capabilities.capabilities[%d] (%s %s) needs permission %q, which extension.permissions does not grant", i, c.Kind, c.Name, p))
			}
		}
	}
	return notes
}

func jsonKind(raw json.RawMessage) string {
	t := strings.TrimSpace(string(raw))
	if t == "" {
		return "nothing"
	}
	switch t[0] {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

func abbreviate(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}

// adopt takes the capabilities of the first initialize, refusing what the
// permissions do not allow, and returns a note for each refusal. Manifest
// hooks and initialize hooks together are the subscriptions.
func (e *Extension) adopt(res *InitResult) []string {
	if e.initialized {
		return nil
	}
	e.initialized = true
	d := e.declare(res)
	e.mu.Lock()
	e.tools, e.subs = d.tools, d.subs
	e.mu.Unlock()
	e.providers = d.providers
	return d.problems
}

// declaration is what one initialize answer declares, as the manifest's
// permissions allow it.
type declaration struct {
	tools     []ToolDecl
	subs      []hook.Subscription
	providers json.RawMessage
	problems  []string
}

// declare reads an initialize answer against the manifest: the tools,
// subscriptions and providers it may declare, and a note for each refusal.
func (e *Extension) declare(res *InitResult) declaration {
	var d declaration
	m := e.plugin.Manifest.Extension
	problems := append([]string(nil), res.Warnings...)
	if res.ProtocolVersion == nil {
		problems = append(problems, fmt.Sprintf("initialize result has no protocol_version; assuming %d", max(m.ProtocolVersion, contract.ProtocolVersion)))
	}
	problems = append(problems, checkExtra(res.Capabilities.Extra, m.Permissions)...)
	d.tools, problems = DecodeTools(res.Capabilities.Tools, m.Permissions, problems)
	d.subs = append([]hook.Subscription(nil), m.Hooks...)
	if !isNull(res.Capabilities.Hooks) {
		subs, warns, err := plugin.AcceptSubscriptions(e.plugin.ManifestFile(), "initialize result capabilities.hooks", res.Capabilities.Hooks, m.Permissions)
		problems = append(problems, warns...)
		for _, err := range plugin.Errors(err) {
			problems = append(problems, "refused hook: "+err.Error())
		}
		for _, s := range subs {
			if err := plugin.CheckProtocol(s.Hook, m.ProtocolVersion); err != nil {
				problems = append(problems, fmt.Sprintf(`refused hook: initialize result capabilities.hooks: %v; set "protocol_version": 2 in the extension object of plugin.json`, err))
				continue
			}
			if !containsSub(d.subs, s) {
				d.subs = append(d.subs, s)
			}
		}
	}
	if !isNull(res.Capabilities.Providers) {
		if !m.Permissions.Has(contract.PermProvidersRegister) {
			problems = append(problems, fmt.Sprintf("refused providers: declaring providers needs the %q permission in extension.permissions", contract.PermProvidersRegister))
		} else if _, err := decodeProviders(res.Capabilities.Providers); err != nil {
			problems = append(problems, "refused providers: "+err.Error())
		} else {
			d.providers = res.Capabilities.Providers
		}
	}
	d.problems = problems
	return d
}

// declared is what the extension declared: its tools and subscriptions.
func (e *Extension) declared() ([]ToolDecl, []hook.Subscription) {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.tools, e.subs
}

func containsSub(list []hook.Subscription, s hook.Subscription) bool {
	b, _ := json.Marshal(s)
	for _, x := range list {
		a, _ := json.Marshal(x)
		if string(a) == string(b) {
			return true
		}
	}
	return false
}

// DecodeTools validates declared tools: non-empty unique name of at most
// 64 characters without ':' or spaces, a description, an object schema, and
// the tools.register permission.
func DecodeTools(raw json.RawMessage, perms contract.Permissions, problems []string) ([]ToolDecl, []string) {
	if isNull(raw) {
		return nil, problems
	}
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		return nil, append(problems, "refused tools: capabilities.tools must be an array of tool objects")
	}
	if len(items) > 0 && !perms.Has(contract.PermToolsRegister) {
		return nil, append(problems, fmt.Sprintf("refused %s: registering tools needs the %q permission in extension.permissions", plural.Count(len(items), "tool"), contract.PermToolsRegister))
	}
	var tools []ToolDecl
	seen := map[string]bool{}
	for i, item := range items {
		var d struct {
			ToolDecl
			InputSchemaCamel json.RawMessage `json:"inputSchema"`
			Parameters       json.RawMessage `json:"parameters"`
			Annotations      struct {
				ReadOnlyHint bool `json:"readOnlyHint"`
			} `json:"annotations"`
		}
		if err := json.Unmarshal(item, &d); err != nil {
			problems = append(problems, fmt.Sprintf("refused capabilities.tools[%d]: not a tool object: %v", i, err))
			continue
		}
		t := d.ToolDecl
		t.ReadOnly = t.ReadOnly || d.Annotations.ReadOnlyHint
		if len(t.InputSchema) == 0 {
			t.InputSchema = firstNonEmpty(d.InputSchemaCamel, d.Parameters)
		}
		if err := checkTool(t, seen); err != nil {
			problems = append(problems, fmt.Sprintf("refused capabilities.tools[%d]: %v", i, err))
			continue
		}
		seen[t.Name] = true
		tools = append(tools, t)
	}
	return tools, problems
}

func checkTool(t ToolDecl, seen map[string]bool) error {
	switch {
	case t.Name == "":
		return errors.New("tool has no name")
	case len(t.Name) > contract.MaxToolNameLen:
		return fmt.Errorf("tool name %q is longer than %d characters", t.Name, contract.MaxToolNameLen)
	case strings.ContainsAny(t.Name, ": \t\n"):
		return fmt.Errorf("tool name %q contains ':' or whitespace; use letters, digits, '_' or '-'", t.Name)
	case seen[t.Name]:
		return fmt.Errorf("tool %q is declared twice", t.Name)
	case strings.TrimSpace(t.Description) == "":
		return fmt.Errorf("tool %q has no description; the model needs one to know when to call it", t.Name)
	}
	var schema map[string]any
	if len(t.InputSchema) == 0 || json.Unmarshal(t.InputSchema, &schema) != nil || schema == nil {
		return fmt.Errorf("tool %q: input_schema must be a JSON Schema object such as {\"type\":\"object\",\"properties\":{}}", t.Name)
	}
	return nil
}

func firstNonEmpty(raws ...json.RawMessage) json.RawMessage {
	for _, r := range raws {
		if len(r) > 0 {
			return r
		}
	}
	return nil
}
