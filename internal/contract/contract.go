// Package contract is the runtime's own copy of the extension contract:
// which hooks exist, which permission unlocks each, which actions each may
// return, which matcher keys a subscription may use, which methods the
// runtime calls and how long each may take, and the wire limits.
// docs/extensions/contract.json is held equal to these tables by
// contract_doc_test.go, and the docs' examples to the runtime's decoders
// by doc_examples_test.go, so the documentation cannot drift from what the
// engine enforces.
//
// It owns tables and the small predicates over them, nothing else: it must
// not know about processes, JSON-RPC, manifests on disk or the agent loop,
// and it imports nothing from this module.
package contract

import (
	"slices"
	"strings"
	"time"
)

// ProtocolVersion is the only extension protocol version this runtime speaks.
const ProtocolVersion = 1

// Hook names.
const (
	HookBeforeToolCall    = "before_tool_call"
	HookAfterToolCall     = "after_tool_call"
	HookBeforeMessage     = "before_message"
	HookOnMessageComplete = "on_message_complete"
	HookOnCompaction      = "on_compaction"
	HookOnSessionStart    = "on_session_start"
	HookOnSessionEnd      = "on_session_end"
)

// Action is what a hook handler asks the runtime to do. "allow", "{}" and
// null all normalise to ActionContinue.
type Action string

// Actions, in the spelling the runtime writes into traces and docs.
const (
	ActionContinue Action = "continue"
	ActionBlock    Action = "block"
	ActionConfirm  Action = "confirm"
	ActionModify   Action = "modify"
	ActionReplace  Action = "replace"
	ActionInject   Action = "inject"
)

// Permissions.
const (
	PermToolsRegister        = "tools.register"
	PermToolsIntercept       = "tools.intercept"
	PermToolsTransformOutput = "tools.transform_output"
	PermPrivacyLLMContent    = "privacy.llm_content"
	PermSessionLifecycle     = "session.lifecycle"
	PermProvidersRegister    = "providers.register"
	PermToolsOverride        = "tools.override" // reserved: never granted

	// HookPermissionPrefix starts the seed dialect's per-hook permissions
	// ("hooks.before_tool_call").
	HookPermissionPrefix = "hooks."
)

// HookSpec describes one lifecycle hook.
type HookSpec struct {
	Name string
	// Permission is the SynapsCLI group permission that unlocks the hook;
	// "hooks.<Name>" unlocks it too.
	Permission string
	// ToolFilter says whether subscriptions may name a tool and a matcher.
	ToolFilter bool
	// Actions lists what a handler may return besides continue. Anything
	// else is logged and treated as continue.
	Actions []Action
}

// Hooks is the hook table, in the order the agent meets them.
var Hooks = []HookSpec{
	{HookBeforeToolCall, PermToolsIntercept, true, []Action{ActionBlock, ActionConfirm, ActionModify}},
	{HookAfterToolCall, PermToolsIntercept, true, []Action{ActionReplace}},
	{HookBeforeMessage, PermPrivacyLLMContent, false, []Action{ActionInject}},
	{HookOnMessageComplete, PermPrivacyLLMContent, false, nil},
	{HookOnCompaction, PermPrivacyLLMContent, false, nil},
	{HookOnSessionStart, PermSessionLifecycle, false, []Action{ActionInject}},
	{HookOnSessionEnd, PermSessionLifecycle, false, nil},
}

// ActionPermissions lists actions that need a permission beyond the hook's.
var ActionPermissions = map[Action]string{
	ActionReplace: PermToolsTransformOutput,
}

// GroupPermissions are the permissions a manifest may declare besides the
// per-hook "hooks.<name>" ones.
var GroupPermissions = []string{
	PermToolsRegister,
	PermToolsIntercept,
	PermToolsTransformOutput,
	PermPrivacyLLMContent,
	PermSessionLifecycle,
	PermProvidersRegister,
}

// ReservedPermissions are recognised but refused at load time.
var ReservedPermissions = []string{PermToolsOverride}

// MatcherKeys are the keys allowed in a subscription's "match" object.
var MatcherKeys = []string{"input_contains", "input_equals"}

// Methods the runtime calls, with their default deadlines.
const (
	MethodInitialize       = "initialize"
	MethodToolCall         = "tool.call"
	MethodHookHandle       = "hook.handle"
	MethodProviderComplete = "provider.complete"
	MethodShutdown         = "shutdown"
)

// MethodDeadlines are the default deadlines per method. Shutdown's is the
// wait for its reply before stdin is closed and signals follow.
var MethodDeadlines = map[string]time.Duration{
	MethodInitialize:       10 * time.Second,
	MethodToolCall:         120 * time.Second,
	MethodHookHandle:       5 * time.Second,
	MethodProviderComplete: 60 * time.Second,
	MethodShutdown:         2 * time.Second,
}

// ToolFields are the keys of a tool in initialize's capabilities.tools, as
// the runtime writes them in docs (inputSchema, parameters and MCP's
// annotations.readOnlyHint are read too).
var ToolFields = []string{"name", "description", "input_schema", "idempotent", "read_only"}

// Wire limits.
const (
	MaxHeaderLine     = 1 << 10  // bytes in one header line
	DefaultMaxBody    = 16 << 20 // bytes in one frame body
	MaxToolOutputHook = 32 << 10 // bytes of tool_output sent in a hook event
	MaxReplaceOutput  = 1 << 20  // bytes a replace action may return
	MaxToolNameLen    = 64
	// MaxSendDepth and MaxSendBytes bound the params of every request
	// synaps sends to an extension (internal/extension/sendbound.go): nesting of objects and
	// arrays, and bytes.
	MaxSendDepth = 100
	MaxSendBytes = 16 << 20
)

// LookupHook returns the spec of the named hook.
func LookupHook(name string) (HookSpec, bool) {
	for _, h := range Hooks {
		if h.Name == name {
			return h, true
		}
	}
	return HookSpec{}, false
}

// HookNames returns every hook name in table order.
func HookNames() []string {
	names := make([]string, len(Hooks))
	for i, h := range Hooks {
		names[i] = h.Name
	}
	return names
}

// Allows reports whether the hook may return the action. Continue is always
// allowed.
func (h HookSpec) Allows(a Action) bool {
	return a == ActionContinue || slices.Contains(h.Actions, a)
}

// KnownPermission reports whether p is a permission a manifest may declare.
func KnownPermission(p string) bool {
	if slices.Contains(GroupPermissions, p) {
		return true
	}
	if name, ok := strings.CutPrefix(p, HookPermissionPrefix); ok {
		_, known := LookupHook(name)
		return known
	}
	return false
}

// Permissions is the set of permissions a plugin declared.
type Permissions map[string]bool

// NewPermissions builds a set from a list.
func NewPermissions(list []string) Permissions {
	p := make(Permissions, len(list))
	for _, s := range list {
		p[s] = true
	}
	return p
}

// Has reports whether the permission was declared.
func (p Permissions) Has(perm string) bool { return p[perm] }

// PermitsHook reports whether the set unlocks the hook, by its per-hook
// permission or its group permission.
func (p Permissions) PermitsHook(hook string) bool {
	spec, ok := LookupHook(hook)
	if !ok {
		return false
	}
	return p[HookPermissionPrefix+hook] || p[spec.Permission]
}

// HookPermissionHint names the permissions that would unlock the hook, for
// error messages.
func HookPermissionHint(hook string) string {
	spec, ok := LookupHook(hook)
	if !ok {
		return ""
	}
	return `"` + HookPermissionPrefix + hook + `" or "` + spec.Permission + `"`
}
