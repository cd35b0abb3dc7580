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

// ProtocolVersion is the extension protocol every extension speaks unless
// its manifest says otherwise; MaxProtocolVersion is the newest this
// runtime speaks. Version 2 (SynapsCLI's, as published plugins use it)
// adds the on_usage hook and nothing else: a hook is available to
// manifests whose version is at least its HookSpec.MinProtocol.
const (
	ProtocolVersion    = 1
	MaxProtocolVersion = 2
)

// ProtocolVersions lists every version a manifest may declare.
var ProtocolVersions = []int{1, 2}

// Hook names.
const (
	HookBeforeToolCall    = "before_tool_call"
	HookAfterToolCall     = "after_tool_call"
	HookBeforeMessage     = "before_message"
	HookOnMessageComplete = "on_message_complete"
	HookOnCompaction      = "on_compaction"
	HookOnSessionStart    = "on_session_start"
	HookOnSessionEnd      = "on_session_end"
	HookOnUsage           = "on_usage"
	// HookOnSubagentComplete fires when a subagent (the agent tool's
	// child loop) gives its final answer: Claude Code's SubagentStop.
	HookOnSubagentComplete = "on_subagent_complete"
	// HookOnNotification fires when synaps wants the user's attention
	// (a permission question, an idle prompt): Claude Code's
	// Notification. Observe only.
	HookOnNotification = "on_notification"
	// HookOnPermissionRequest fires when a tool call needs the user's
	// permission, before the question is asked (and in -p, before the
	// refusal): Claude Code's PermissionRequest. A block denies the call
	// without asking.
	HookOnPermissionRequest = "on_permission_request"
	// HookOnPermissionDenied fires when the permission rules, the mode or
	// the user refused a tool call: Claude Code's PermissionDenied.
	HookOnPermissionDenied = "on_permission_denied"
	// HookAfterToolBatch fires once the tool calls of one model message
	// have all finished, before the next request: Claude Code's
	// PostToolBatch. An inject goes with the results.
	HookAfterToolBatch = "after_tool_batch"
	// HookOnSubagentStart fires when a subagent starts, before its first
	// request: Claude Code's SubagentStart. An inject adds to its system
	// prompt.
	HookOnSubagentStart = "on_subagent_start"
	// HookOnStopFailure fires when a turn ends on a model API error:
	// Claude Code's StopFailure.
	HookOnStopFailure = "on_stop_failure"
	// HookOnPromptExpansion fires when a slash command has been expanded
	// into the prompt it sends: Claude Code's UserPromptExpansion. A
	// block keeps the prompt from the model; an inject adds to it.
	HookOnPromptExpansion = "on_prompt_expansion"
	// HookOnInstructionsLoaded fires for each instructions file (AGENTS.md,
	// CLAUDE.md) read into the system prompt: Claude Code's
	// InstructionsLoaded.
	HookOnInstructionsLoaded = "on_instructions_loaded"
	// HookBeforeModelSwitch fires when the user switches the model
	// (/model), before the switch: Claude Code's PreModelSwitch. A block
	// keeps the model.
	HookBeforeModelSwitch = "before_model_switch"
	// HookAfterModelSwitch fires after a model switch: Claude Code's
	// PostModelSwitch.
	HookAfterModelSwitch = "after_model_switch"
	// HookOnTaskCreated fires when the todo_write tool (Claude's
	// TodoWrite) adds a task to the session's task list, before the list
	// changes: Claude Code's TaskCreated. A block keeps the list as it
	// was and tells the model why.
	HookOnTaskCreated = "on_task_created"
	// HookOnTaskCompleted fires when todo_write marks a task completed,
	// before the list changes: Claude Code's TaskCompleted. A block keeps
	// the task open and tells the model why.
	HookOnTaskCompleted = "on_task_completed"
	// HookOnConfigChange fires when a settings file the session read
	// changed since (noticed at the next prompt): Claude Code's
	// ConfigChange. A block keeps the change out of the session.
	HookOnConfigChange = "on_config_change"
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
	// ActionStop ends the user's turn where it is, with a reason shown to
	// the user (Claude Code's continue:false): no tool runs after it, no
	// further model request is made, the session stays valid.
	ActionStop Action = "stop"
	// ActionContextPhase is SynapsCLI's advisory report of where the
	// conversation stands ({"action":"context_phase","phase":"new_task"})
	// on on_message_complete, from an extension that also holds
	// session.lifecycle (ActionPermissions). synaps has no context phases
	// (the event's data.context_management.enabled is false): the report
	// is accepted, traced and logged, and changes nothing.
	ActionContextPhase Action = "context_phase"
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

	// Permissions of SynapsCLI's later runtime. Each is a registration
	// permission (RegistrationPermissions).
	PermContextProvidersRegister = "context_providers.register"
	PermMemoryRead               = "memory.read"
	PermMemoryWrite              = "memory.write"
	PermConfigWrite              = "config.write"
	PermConfigSubscribe          = "config.subscribe"
	PermAudioInput               = "audio.input"
	PermAudioOutput              = "audio.output"
	// PermSessionDrive lets an interactive command propose a session
	// driver (SynapsCLI's session-drivers.md).
	PermSessionDrive = "session.drive"

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
	// MinProtocol is the lowest extension protocol version whose manifests
	// may subscribe to the hook (0 and 1 mean every version).
	MinProtocol int
}

// Hooks is the hook table, in the order the agent meets them.
var Hooks = []HookSpec{
	{HookBeforeToolCall, PermToolsIntercept, true, []Action{ActionBlock, ActionConfirm, ActionModify, ActionStop}, 1},
	{HookAfterToolCall, PermToolsIntercept, true, []Action{ActionReplace, ActionStop}, 1},
	// A block on before_message keeps the prompt from the model.
	{HookBeforeMessage, PermPrivacyLLMContent, false, []Action{ActionInject, ActionBlock, ActionStop}, 1},
	// A block on on_message_complete keeps the agent from stopping: the
	// reason goes to the model as a new message and the turn goes on
	// (Claude Code's Stop decision:block), at most MaxStopBlocks times.
	// context_phase is advisory (ActionContextPhase).
	{HookOnMessageComplete, PermPrivacyLLMContent, false, []Action{ActionBlock, ActionContextPhase}, 1},
	{HookOnCompaction, PermPrivacyLLMContent, false, nil, 1},
	{HookOnSessionStart, PermSessionLifecycle, false, []Action{ActionInject}, 1},
	{HookOnSessionEnd, PermSessionLifecycle, false, nil, 1},
	// on_usage: after every model response, with its token usage.
	{HookOnUsage, PermPrivacyLLMContent, false, nil, 2},
	// A block on on_subagent_complete keeps the subagent going, as one on
	// on_message_complete keeps the main loop going (SubagentStop's
	// decision:block).
	{HookOnSubagentComplete, PermPrivacyLLMContent, false, []Action{ActionBlock}, 1},
	// on_notification: synaps wants the user's attention; observe only.
	{HookOnNotification, PermSessionLifecycle, false, nil, 1},
	// The moments of Claude Code 2.1.332's newer events (docs/claude.md).
	// A block on on_permission_request denies the call unasked; a stop
	// denies it and ends the turn; a modify changes the input the
	// question is about (Claude Code's updatedInput).
	{HookOnPermissionRequest, PermToolsIntercept, true, []Action{ActionBlock, ActionModify, ActionStop}, 1},
	// An inject on on_permission_denied joins the refusal the model gets
	// (Claude Code's PermissionDenied retry: the model may try again).
	{HookOnPermissionDenied, PermToolsIntercept, true, []Action{ActionInject}, 1},
	// An inject on after_tool_batch goes with the batch's results.
	{HookAfterToolBatch, PermToolsIntercept, false, []Action{ActionInject}, 1},
	{HookOnSubagentStart, PermPrivacyLLMContent, false, []Action{ActionInject}, 1},
	{HookOnStopFailure, PermPrivacyLLMContent, false, nil, 1},
	{HookOnPromptExpansion, PermPrivacyLLMContent, false, []Action{ActionInject, ActionBlock}, 1},
	{HookOnInstructionsLoaded, PermSessionLifecycle, false, nil, 1},
	// A block on before_model_switch keeps the model as it is.
	{HookBeforeModelSwitch, PermSessionLifecycle, false, []Action{ActionBlock}, 1},
	// An inject on after_model_switch joins the next message the user
	// sends (PostModelSwitch's additionalContext).
	{HookAfterModelSwitch, PermSessionLifecycle, false, []Action{ActionInject}, 1},
	// A block on on_task_created or on_task_completed keeps the task list
	// as it was; the reason goes to the model as the tool's error.
	{HookOnTaskCreated, PermPrivacyLLMContent, false, []Action{ActionBlock}, 1},
	{HookOnTaskCompleted, PermPrivacyLLMContent, false, []Action{ActionBlock}, 1},
	// A block on on_config_change keeps the session on the settings as
	// they were.
	{HookOnConfigChange, PermSessionLifecycle, false, []Action{ActionBlock}, 1},
}

// ActionPermissions lists actions that need a permission beyond the hook's.
// An answer whose action needs a permission the extension does not hold is
// treated as continue.
var ActionPermissions = map[Action]string{
	ActionReplace:      PermToolsTransformOutput,
	ActionContextPhase: PermSessionLifecycle,
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
	PermContextProvidersRegister,
	PermMemoryRead,
	PermMemoryWrite,
	PermConfigWrite,
	PermConfigSubscribe,
	PermAudioInput,
	PermAudioOutput,
	PermSessionDrive,
}

// RegistrationPermissions are the permissions that let a manifest without
// hooks do something (SynapsCLI's rule: a manifest must subscribe to a
// hook or hold one of these).
var RegistrationPermissions = []string{
	PermToolsRegister,
	PermProvidersRegister,
	PermContextProvidersRegister,
	PermMemoryRead,
	PermMemoryWrite,
	PermConfigWrite,
	PermConfigSubscribe,
	PermAudioInput,
	PermAudioOutput,
}

// UnsupportedPermissions are accepted in manifests although this runtime
// has no capability behind them: the plugin loads, and a warning (this
// text) says what it asked for that synaps cannot give.
var UnsupportedPermissions = map[string]string{
	PermAudioInput:               "synaps has no audio input to offer; the permission is accepted and grants nothing here",
	PermAudioOutput:              "synaps has no audio output to offer; the permission is accepted and grants nothing here",
	PermContextProvidersRegister: "synaps does not run context providers (extension.deferred.context_providers); the permission is accepted and grants nothing here",
	PermSessionDrive:             "synaps has no session drivers; the permission is accepted and grants nothing here",
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
	// MethodInfoGet asks a SynapsCLI-dialect extension that registered
	// tools or providers to describe itself, once after initialize.
	MethodInfoGet = "info.get"
	// MethodProviderStream is provider.complete for a model whose
	// capabilities say streaming: the answer comes as
	// provider.stream.event notifications, then the final result.
	MethodProviderStream = "provider.stream"
	// MethodCommandInvoke runs a plugin's interactive command (a
	// manifest "commands" entry with "interactive": true): its output
	// comes as command.output and task.* notifications.
	MethodCommandInvoke = "command.invoke"
	// MethodSettingsEditorOpen, Key and Commit drive a plugin's custom
	// settings editor: open renders rows for {category, field}, key
	// sends one key and may re-render, commit sends the chosen value and
	// the reply says what to write.
	MethodSettingsEditorOpen   = "settings.editor.open"
	MethodSettingsEditorKey    = "settings.editor.key"
	MethodSettingsEditorCommit = "settings.editor.commit"
	// MethodSidecarSpawnArgs asks a plugin's extension for the
	// arguments of its sidecar: {args?: [...]}.
	MethodSidecarSpawnArgs = "sidecar.spawn_args"
)

// MethodDeadlines are the default deadlines per method. Shutdown's is the
// wait for its reply before stdin is closed and signals follow.
var MethodDeadlines = map[string]time.Duration{
	MethodInitialize:       10 * time.Second,
	MethodToolCall:         120 * time.Second,
	MethodHookHandle:       5 * time.Second,
	MethodProviderComplete: 60 * time.Second,
	MethodShutdown:         2 * time.Second,
	MethodInfoGet:          5 * time.Second,
	MethodProviderStream:   60 * time.Second,
	MethodCommandInvoke:    120 * time.Second,

	MethodSettingsEditorOpen:   5 * time.Second,
	MethodSettingsEditorKey:    5 * time.Second,
	MethodSettingsEditorCommit: 5 * time.Second,
	MethodSidecarSpawnArgs:     5 * time.Second,
}

// Requests an extension may send to the runtime.
const (
	HostConfigGet       = "config.get"
	HostConfigSet       = "config.set"
	HostConfigSubscribe = "config.subscribe"
	HostMemoryAppend    = "memory.append"
	HostMemoryQuery     = "memory.query"
)

// HostMethods maps each request an extension may send to the permission
// it needs ("" for none). Any other method is answered -32601; a method
// whose permission is missing is answered CodePermissionDenied.
var HostMethods = map[string]string{
	HostConfigGet:       "",
	HostConfigSet:       PermConfigWrite,
	HostConfigSubscribe: PermConfigSubscribe,
	HostMemoryAppend:    PermMemoryWrite,
	HostMemoryQuery:     PermMemoryRead,
}

// CodePermissionDenied is the JSON-RPC error code of a request whose
// permission the manifest does not hold (SynapsCLI uses the same code,
// invalid params); the message names the permission.
const CodePermissionDenied = -32602

// Notifications between runtime and extension.
const (
	// NotifyConfigChanged goes to an extension that called
	// config.subscribe when one of its config keys changes:
	// {key, value} (value a string, null when the key was removed).
	NotifyConfigChanged = "config.changed"
	// NotifyLog (from the extension) writes a line to its log:
	// {level?, message}.
	NotifyLog = "log"
	// NotifyNotify (from the extension) shows the user a message:
	// {message, level?}.
	NotifyNotify = "notify"
	// NotifyProviderStreamEvent (from the extension) carries one piece of
	// a provider.stream answer.
	NotifyProviderStreamEvent = "provider.stream.event"
)

// Notifications an extension sends while command.invoke runs.
const (
	// NotifyCommandOutput is one piece of a command's output:
	// {request_id, event: {kind: text|system|error|table|done, ...}}
	// (or the event's keys flat beside request_id).
	NotifyCommandOutput = "command.output"
	// NotifyTaskStart, NotifyTaskUpdate, NotifyTaskLog and NotifyTaskDone
	// report the progress of a long task: {id, label, kind?};
	// {id, current?, total?, message?}; {id, line}; {id, error?}.
	NotifyTaskStart  = "task.start"
	NotifyTaskUpdate = "task.update"
	NotifyTaskLog    = "task.log"
	NotifyTaskDone   = "task.done"
)

// CommandNotifications are the notifications read while a command runs.
var CommandNotifications = []string{NotifyCommandOutput, NotifyTaskStart, NotifyTaskUpdate, NotifyTaskLog, NotifyTaskDone}

// UnsupportedNotifications are notifications of SynapsCLI's runtime that
// this one reads but does not act on; each is logged once per extension
// with this text, as a warning shown with the extension's status.
var UnsupportedNotifications = map[string]string{
	"widget.upsert":  "synaps does not show extension widgets yet; widget.upsert and widget.dismiss are ignored",
	"widget.dismiss": "synaps does not show extension widgets yet; widget.upsert and widget.dismiss are ignored",
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

// Unsupported reports why a declared permission grants nothing here, or
// "" when synaps implements it.
func Unsupported(perm string) string { return UnsupportedPermissions[perm] }

// Registration reports whether p is a registration permission.
func Registration(p string) bool { return slices.Contains(RegistrationPermissions, p) }

// HookPermissionHint names the permissions that would unlock the hook, for
// error messages.
func HookPermissionHint(hook string) string {
	spec, ok := LookupHook(hook)
	if !ok {
		return ""
	}
	return `"` + HookPermissionPrefix + hook + `" or "` + spec.Permission + `"`
}
