package extension

// The initialize handshake's answer: what an extension declares (tools,
// hook subscriptions, providers) and what of it the permissions allow.

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/synaps-cli/synaps/internal/contract"
	"github.com/synaps-cli/synaps/internal/hook"
	"github.com/synaps-cli/synaps/internal/plugin"
)

// InitResult is what an extension answers to initialize, read tolerantly
// (DecodeInitResult).
type InitResult struct {
	ProtocolVersion *int   `json:"protocol_version"`
	Name            string `json:"name"`
	Version         string `json:"version"`
	Capabilities    struct {
		Tools     json.RawMessage `json:"tools"`
		Hooks     json.RawMessage `json:"hooks"`
		Providers json.RawMessage `json:"providers"`
	} `json:"capabilities"`
}

// DecodeInitResult reads an initialize result as the runtime does: null is
// an empty result, a protocol_version other than 1 an error.
func DecodeInitResult(raw json.RawMessage) (*InitResult, error) {
	res := &InitResult{}
	if isNull(raw) {
		return res, nil
	}
	if err := json.Unmarshal(raw, res); err != nil {
		return nil, fmt.Errorf("not an object with capabilities: %v", err)
	}
	if res.ProtocolVersion != nil && *res.ProtocolVersion != contract.ProtocolVersion {
		return nil, fmt.Errorf("protocol_version is %d, but this synaps speaks extension protocol %d", *res.ProtocolVersion, contract.ProtocolVersion)
	}
	return res, nil
}

// adopt takes the capabilities of the first initialize, refusing what the
// permissions do not allow, and returns a note for each refusal. Manifest
// hooks and initialize hooks together are the subscriptions.
func (e *Extension) adopt(res *InitResult) []string {
	if e.initialized {
		return nil
	}
	e.initialized = true
	m := e.plugin.Manifest.Extension
	var problems []string
	if res.ProtocolVersion == nil {
		problems = append(problems, "initialize result has no protocol_version; assuming 1")
	}
	e.tools, problems = DecodeTools(res.Capabilities.Tools, m.Permissions, problems)
	e.subs = append([]hook.Subscription(nil), m.Hooks...)
	if !isNull(res.Capabilities.Hooks) {
		subs, warns, err := plugin.AcceptSubscriptions(e.plugin.ManifestFile(), "initialize result capabilities.hooks", res.Capabilities.Hooks, m.Permissions)
		problems = append(problems, warns...)
		for _, err := range plugin.Errors(err) {
			problems = append(problems, "refused hook: "+err.Error())
		}
		for _, s := range subs {
			if !containsSub(e.subs, s) {
				e.subs = append(e.subs, s)
			}
		}
	}
	if !isNull(res.Capabilities.Providers) {
		if !m.Permissions.Has(contract.PermProvidersRegister) {
			problems = append(problems, fmt.Sprintf("refused providers: declaring providers needs the %q permission in extension.permissions", contract.PermProvidersRegister))
		} else if _, err := decodeProviders(res.Capabilities.Providers); err != nil {
			problems = append(problems, "refused providers: "+err.Error())
		} else {
			e.providers = res.Capabilities.Providers
		}
	}
	return problems
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
		return nil, append(problems, fmt.Sprintf("refused %d tool(s): registering tools needs the %q permission in extension.permissions", len(items), contract.PermToolsRegister))
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
