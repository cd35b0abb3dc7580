package plugin

// A broken guard is a plugin whose manifest does not load but asks to fail
// closed. A typo anywhere in the manifest ("Closed", an unknown permission,
// a trailing comma) must not switch a fail-closed guard off: the author
// asked that its failure block what it guards, and failing to load is a
// failure. So the raw manifest is read leniently for that one request, and
// the guard is held to the tool hooks it would have judged.

import (
	"errors"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/synaps-cli/synaps/internal/contract"
	"github.com/synaps-cli/synaps/internal/hook"
	"github.com/synaps-cli/synaps/internal/safefile"
)

// closedPolicy finds a request to fail closed in raw manifest text, however
// the rest is broken: key and value in any case, '-', '_' or nothing inside
// the key, the value quoted or not. The key must be quoted, as a JSON key
// is, so a description that mentions the words is not taken for it.
var closedPolicy = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)["']failure[_-]?policy["']\s*:\s*["']?\s*closed\b`)
})

// brokenGuardSubs returns the tool-hook subscriptions a plugin whose
// manifest failed to load (m is what could be read, possibly nil; err the
// load error) is held to, or nil when its raw manifest does not ask for
// failure_policy "closed".
//
// When the filter can be read — extension.hooks and extension.permissions
// are free of errors — the guard keeps its manifest's tool-hook
// subscriptions and, like a guard that never started, every tool for each
// tool hook its permissions allow but its manifest does not subscribe to.
// When the filter cannot be read (the text is not JSON, or hooks or
// permissions are broken), it guards before_tool_call for every tool.
func brokenGuardSubs(dir string, m *Manifest, err error) []hook.Subscription {
	raw, _, ferr := safefile.Read(filepath.Join(dir, ManifestDir, ManifestFile), MaxManifestSize)
	if ferr != nil {
		return nil // no manifest: nothing asked to fail closed
	}
	if !closedPolicy().Match(raw) {
		return nil
	}
	everything := []hook.Subscription{{Hook: contract.HookBeforeToolCall}}
	if m == nil || m.Extension == nil || filterBroken(err) {
		return everything
	}
	e := m.Extension
	var subs []hook.Subscription
	subscribed := map[string]bool{}
	for _, s := range e.Hooks {
		if s.Hook == contract.HookBeforeToolCall || s.Hook == contract.HookAfterToolCall {
			subs = append(subs, s)
			subscribed[s.Hook] = true
		}
	}
	for _, h := range []string{contract.HookBeforeToolCall, contract.HookAfterToolCall} {
		if !subscribed[h] && e.Permissions.PermitsHook(h) {
			subs = append(subs, hook.Subscription{Hook: h})
		}
	}
	return subs
}

// filterBroken reports whether a load error touches what decides which
// calls a guard judges: its hooks or its permissions.
func filterBroken(err error) bool {
	for _, e := range Errors(err) {
		var me *ManifestError
		if !errors.As(e, &me) {
			return true
		}
		if me.Field == "" || me.Field == "extension" ||
			strings.HasPrefix(me.Field, "extension.hooks") || strings.HasPrefix(me.Field, "extension.permissions") {
			return true
		}
	}
	return false
}

// BrokenGuardFault is the fault a broken guard (a plugin with BrokenGuard
// set) answers every call with, on one line, from its load error.
func BrokenGuardFault(err error) error {
	var parts []string
	for _, e := range Errors(err) {
		parts = append(parts, strings.ReplaceAll(e.Error(), "\n", " "))
	}
	return errors.New("its manifest did not load: " + strings.Join(parts, "; ") + "; fix the manifest and run /extensions reload")
}

// BrokenGuardNote tells the user what a broken guard still blocks.
func BrokenGuardNote(subs []hook.Subscription) string {
	var what []string
	for _, s := range subs {
		w := s.Hook
		if s.Tool != "" {
			w += " of " + s.Tool
		} else {
			w += " of every tool"
		}
		if s.Match != nil {
			w += " (matching input)"
		}
		what = append(what, w)
	}
	return "failure_policy is closed, so until the manifest is fixed the calls it guards are blocked (" + strings.Join(what, ", ") + ")"
}
