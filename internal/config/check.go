package config

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/synaps-cli/synaps/internal/spelling"
)

// Keys of the global config that synaps reads. Check knows them, so a
// misspelt one is a warning instead of a setting that silently does
// nothing. Plugin settings (`extension.<id>.<key>`) are the plugins'.
const (
	KeyModel            = "model"
	KeyIdentity         = "identity"
	KeyDisabledPlugins  = "disabled_plugins"
	KeyHookTimeoutMS    = "extension_hook_timeout_ms"
	KeyAnthropicAPIKey  = "anthropic_api_key"
	KeyAnthropicBaseURL = "anthropic_base_url"
	KeyOpenAIAPIKey     = "openai_api_key"
	KeyOpenAIBaseURL    = "openai_base_url"
	// KeyPermissionMode is the permission mode a session starts in;
	// KeyPermissionsAllow, -Ask and -Deny are rule lists in Claude Code's
	// syntax (see internal/permission).
	KeyPermissionMode   = "permission_mode"
	KeyPermissionsAllow = "permissions.allow"
	KeyPermissionsAsk   = "permissions.ask"
	KeyPermissionsDeny  = "permissions.deny"
	// KeyRequiredGuards lists the guards (report ids such as
	// ext:policy-guard/before_tool_call, or plugin names) every tool call
	// they match must be judged by: one they did not judge is blocked.
	KeyRequiredGuards = "required_guards"
	// KeyMCPStartupTimeoutMS and KeyMCPToolTimeoutMS bound an MCP
	// server's start and one MCP tool call, for every server without its
	// own startup_timeout_sec / tool_timeout_sec (MCP_TIMEOUT and
	// MCP_TOOL_TIMEOUT in the environment win, as Claude Code reads them).
	KeyMCPStartupTimeoutMS = "mcp_startup_timeout_ms"
	KeyMCPToolTimeoutMS    = "mcp_tool_timeout_ms"
	// Limits of an unattended run, as the flags of the same names set
	// them (a flag wins): max_turns, max_tool_calls, max_budget_usd
	// (dollars) and timeout (a Go duration such as 10m).
	KeyMaxTurns     = "max_turns"
	KeyMaxToolCalls = "max_tool_calls"
	KeyMaxBudgetUSD = "max_budget_usd"
	KeyTimeout      = "timeout"
	// KeyEffort is the thinking level sessions start with: off, low,
	// medium, high or max (--effort wins).
	KeyEffort = "effort"
	// KeyDetachable makes the terminal UI run in the session daemon, as
	// --detachable does; KeyDaemonIdleExit is how long the daemon stays
	// with no client and no turn running (a duration, or never).
	KeyDetachable     = "detachable"
	KeyDaemonIdleExit = "daemon_idle_exit"
	// Subagents (the agent tool): how many of one turn run at once
	// (default 4), and each child's budget: model requests (default 30)
	// and tokens, input plus output (default none). An agent file's
	// max_turns and max_tokens win.
	KeySubagentMaxParallel = "subagent_max_parallel"
	KeySubagentMaxTurns    = "subagent_max_turns"
	KeySubagentMaxTokens   = "subagent_max_tokens"
)

// KeyOpenAISearchModel is the model the web_search tool asks, with
// web_search_options, when the session's model is OpenAI's (default: the
// session's model when it is a search model, else gpt-4o-search-preview
// on api.openai.com; another endpoint needs it set). KeyOutputStyle is
// the output style sessions start with (see docs/plugins.md).
const (
	KeyOpenAISearchModel = "openai_search_model"
	KeyOutputStyle       = "output_style"
)

// KeyDisabledHooks lists hook ids (`synaps hooks` shows them) that are
// never called, while the rest of their plugin runs.
const KeyDisabledHooks = "disabled_hooks"

var knownKeys = []string{
	KeyModel, KeyIdentity, KeyDisabledPlugins, KeyDisabledHooks, KeyHookTimeoutMS, ToolEnvAllow,
	KeyAnthropicAPIKey, KeyAnthropicBaseURL, KeyOpenAIAPIKey, KeyOpenAIBaseURL, KeyPermissionMode,
	KeyMCPStartupTimeoutMS, KeyMCPToolTimeoutMS, KeyMaxTurns, KeyMaxToolCalls, KeyMaxBudgetUSD, KeyTimeout, KeyEffort,
	KeyDetachable, KeyDaemonIdleExit, KeyRequiredGuards,
	KeySubagentMaxParallel, KeySubagentMaxTurns, KeySubagentMaxTokens,
	KeyOpenAISearchModel, KeyOutputStyle,
}

// Check returns a warning for every setting of the global config that
// would do nothing, or less than its writer meant: a value of the wrong
// type, a list item that cannot be a plugin id, a key that is a known key
// misspelt. Each warning names the file, the key and the fix. (Bad
// tool_env_allow entries are warned where they are read: EnvNames.)
func (f *File) Check() []string {
	if f == nil {
		return nil
	}
	out := append([]string(nil), f.Problems...)
	if _, w := f.HookTimeout(); w != "" {
		out = append(out, w)
	}
	out = append(out, f.checkPluginList(KeyDisabledPlugins)...)
	if _, w := f.PluginsVerify(); w != "" {
		out = append(out, w)
	}
	for _, k := range []string{KeyMCPStartupTimeoutMS, KeyMCPToolTimeoutMS} {
		if _, w := f.Millis(k); w != "" {
			out = append(out, w)
		}
	}
	for _, k := range f.Keys() {
		if strings.Contains(k, ".") {
			if w := f.checkDotted(k); w != "" {
				out = append(out, w)
			}
			continue
		}
		if contains(knownKeys, k) {
			continue
		}
		if near := nearestKey(k); near != "" {
			out = append(out, fmt.Sprintf("%s: unknown key %q, so it does nothing; did you mean %q?", f.Path, k, near))
		}
	}
	return out
}

// HookTimeout is extension_hook_timeout_ms: the deadline of one hook call.
// It is 0 when the key is not set or its value is not usable, and then
// warning (when set) says why, naming file and key, and how to fix it.
// A number of milliseconds is what the key means; a duration with its
// unit ("20s", "1500ms") is what people also write, and is read too.
func (f *File) HookTimeout() (d time.Duration, warning string) {
	v, ok := f.Get(KeyHookTimeoutMS)
	if !ok {
		return 0, ""
	}
	v = strings.TrimSpace(v)
	if ms, err := strconv.ParseInt(strings.ReplaceAll(v, "_", ""), 10, 64); err == nil && ms > 0 && ms <= int64(time.Hour/time.Millisecond) {
		return time.Duration(ms) * time.Millisecond, ""
	}
	if pd, err := time.ParseDuration(v); err == nil && pd >= time.Millisecond && pd <= time.Hour {
		return pd, ""
	}
	return 0, fmt.Sprintf("%s: %s = %q is not a number of milliseconds between 1 and 3600000, so the default (5000) is used; write e.g. `%s = 20000`", f.Path, KeyHookTimeoutMS, v, KeyHookTimeoutMS)
}

// checkPluginList warns about items of a plugin-id list that can never
// name a plugin (left-over brackets or quotes, spaces, paths).
func (f *File) checkPluginList(key string) []string {
	var out []string
	for _, item := range f.List(key) {
		if strings.ContainsAny(item, "[]\"' \t/\\") {
			out = append(out, fmt.Sprintf("%s: %s: %q is not a plugin id, so it disables nothing; list plugin directory names separated by commas, e.g. `%s = p1, p2` (`synaps extensions list` shows the ids)", f.Path, key, item, key))
		}
	}
	return out
}

// nearestKey is the known key k is most likely a misspelling of, or "".
func nearestKey(k string) string {
	norm := func(s string) string { return strings.ReplaceAll(strings.ToLower(s), "-", "_") }
	type cand struct {
		key  string
		dist int
	}
	var cands []cand
	for _, known := range knownKeys {
		d := spelling.Distance(norm(k), known)
		if d == 0 || d <= 2 && len(known) >= 5 {
			cands = append(cands, cand{known, d})
		}
	}
	if len(cands) == 0 {
		return ""
	}
	sort.Slice(cands, func(i, j int) bool { return cands[i].dist < cands[j].dist })
	return cands[0].key
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// Millis reads key as a positive number of milliseconds (at most an
// hour; "30s" and "1500ms" are read too). It is 0 when the key is not set
// or its value is not usable, and then warning (when set) names the file,
// the key and the fix.
func (f *File) Millis(key string) (d time.Duration, warning string) {
	v, ok := f.Get(key)
	if !ok {
		return 0, ""
	}
	v = strings.TrimSpace(v)
	if ms, err := strconv.ParseInt(strings.ReplaceAll(v, "_", ""), 10, 64); err == nil && ms > 0 && ms <= int64(time.Hour/time.Millisecond) {
		return time.Duration(ms) * time.Millisecond, ""
	}
	if pd, err := time.ParseDuration(v); err == nil && pd >= time.Millisecond && pd <= time.Hour {
		return pd, ""
	}
	return 0, fmt.Sprintf("%s: %s = %q is not a number of milliseconds between 1 and 3600000, so the default is used; write e.g. `%s = 60000`", f.Path, key, v, key)
}
