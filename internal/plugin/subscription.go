package plugin

// Decoding and checking hook subscriptions (hook.Subscription): which hook
// an extension wants, optionally narrowed to one tool and to tool inputs
// that match. They come from the manifest
// (SynapsCLI dialect, extension.hooks) or from the initialize response
// (seed dialect, capabilities.hooks); both use the same shape:
//
//	{"hook": "before_tool_call", "tool": "bash", "match": {"input_contains": "rm -rf"}}
//	{"name": "before_tool_call"}
//	"before_tool_call"            (shorthand, accepted by this runtime)

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/synaps-cli/synaps/internal/contract"
	"github.com/synaps-cli/synaps/internal/hook"
)

// subscriptionKeys are the keys a subscription object may hold.
var subscriptionKeys = []string{"hook", "name", "tool", "match"}

// subscriptionError is a problem in one subscription. Field is relative to
// the subscription ("hook", "tool", "match.input_equals").
type subscriptionError struct {
	field, problem, fix string
}

func (e *subscriptionError) Error() string { return e.problem + ". " + e.fix }

// CheckSubscription validates one subscription against the contract: the hook exists,
// "tool" and "match" appear only on hooks with a tool filter, and the
// permissions unlock the hook (by "hooks.<name>" or its group permission).
// The error does not name a file or field; the caller adds them.
func CheckSubscription(s hook.Subscription, perms contract.Permissions) error {
	spec, ok := contract.LookupHook(s.Hook)
	if !ok {
		fix := "Use one of: " + strings.Join(contract.HookNames(), ", ")
		if sug := suggest(s.Hook, contract.HookNames()); sug != "" {
			fix = fmt.Sprintf("Did you mean %q? ", sug) + fix
		}
		return &subscriptionError{"hook", fmt.Sprintf("unknown hook %q", s.Hook), fix}
	}
	var errs []error
	if !spec.ToolFilter {
		toolHooks := toolFilterHooks()
		if s.Tool != "" {
			errs = append(errs, &subscriptionError{"tool",
				fmt.Sprintf(`hook %q has no tool filter: "tool" is allowed only on %s`, s.Hook, strings.Join(toolHooks, " and ")),
				fmt.Sprintf(`Remove "tool"; %s is not about a tool call`, s.Hook)})
		}
		if s.Match != nil {
			errs = append(errs, &subscriptionError{"match",
				fmt.Sprintf(`hook %q has no tool filter: "match" is allowed only on %s`, s.Hook, strings.Join(toolHooks, " and ")),
				fmt.Sprintf(`Remove "match"; %s is not about a tool call`, s.Hook)})
		}
	}
	if s.Match != nil && s.Match.InputEquals != nil {
		if o, ok := decodeObject(s.Match.InputEquals); !ok || o == nil {
			errs = append(errs, &subscriptionError{"match.input_equals",
				fmt.Sprintf(`"input_equals" must be a JSON object, got %s`, kindOf(s.Match.InputEquals)),
				`Give the exact tool input object, e.g. {"command": "ls"}`})
		}
	}
	if !perms.PermitsHook(s.Hook) {
		errs = append(errs, &subscriptionError{"hook",
			fmt.Sprintf("hook %q needs permission %s, which is not declared", s.Hook, contract.HookPermissionHint(s.Hook)),
			"Add one of them to extension.permissions in plugin.json"})
	}
	return errors.Join(errs...)
}

// CheckProtocol reports whether a manifest of protocol version v may
// subscribe to hook: on_usage came with protocol 2, and SynapsCLI refuses
// it to version 1 manifests.
func CheckProtocol(hookName string, v int) error {
	spec, ok := contract.LookupHook(hookName)
	if !ok || spec.MinProtocol <= 1 || v >= spec.MinProtocol {
		return nil
	}
	return fmt.Errorf("hook %q needs extension protocol %d, but the manifest declares %d", hookName, spec.MinProtocol, v)
}

// toolFilterHooks lists the hooks whose subscriptions may name a tool.
func toolFilterHooks() []string {
	var names []string
	for _, h := range contract.Hooks {
		if h.ToolFilter {
			names = append(names, h.Name)
		}
	}
	return names
}

// subscriptionManifestError places a CheckSubscription error at its field: base is the
// subscription's path ("extension.hooks[0]"), hookKey the key that held the
// hook name ("hook" or "name"; "" for the string shorthand).
func subscriptionManifestError(file, base, hookKey string, err error) error {
	var out []error
	for _, e := range Errors(err) {
		var se *subscriptionError
		if !errors.As(e, &se) {
			out = append(out, &ManifestError{File: file, Field: base, Problem: e.Error()})
			continue
		}
		field := base
		switch {
		case se.field == "hook" && hookKey == "":
			// string shorthand: the element itself names the hook
		case se.field == "hook":
			field += "." + hookKey
		default:
			field += "." + se.field
		}
		out = append(out, &ManifestError{File: file, Field: field, Problem: se.problem, Fix: se.fix})
	}
	return errors.Join(out...)
}

// DecodeSubscriptions parses a JSON array of subscriptions (the manifest's
// extension.hooks or an initialize response's capabilities.hooks). The hook
// name may be under "hook" or "name"; a bare string is shorthand for
// {"hook": string}. fieldPrefix starts the Field of every error
// ("extension.hooks", "initialize result capabilities.hooks"). Errors are
// *ManifestError values joined with errors.Join; the subscriptions that
// decoded are returned alongside. Decoding checks shape only; use Check for
// the contract.
func DecodeSubscriptions(file, fieldPrefix string, raw json.RawMessage) ([]hook.Subscription, error) {
	subs, _, err := DecodeSubscriptionsWithWarnings(file, fieldPrefix, raw)
	return subs, err
}

// DecodeSubscriptionsWithWarnings is DecodeSubscriptions that also returns
// non-fatal notes (ignored unknown keys), each "<file>: <field>: <note>".
func DecodeSubscriptionsWithWarnings(file, fieldPrefix string, raw json.RawMessage) ([]hook.Subscription, []string, error) {
	decoded, warns, err := decodeSubscriptions(file, fieldPrefix, raw)
	var subs []hook.Subscription
	for _, d := range good(decoded) {
		subs = append(subs, d.sub)
	}
	return subs, warns, err
}

// AcceptSubscriptions decodes subscriptions and checks each against perms,
// for an initialize response: it returns the subscriptions that pass, and
// one *ManifestError (joined) for every refused one, naming its field.
func AcceptSubscriptions(file, fieldPrefix string, raw json.RawMessage, perms contract.Permissions) ([]hook.Subscription, []string, error) {
	decoded, warns, err := decodeSubscriptions(file, fieldPrefix, raw)
	var errs []error
	if err != nil {
		errs = Errors(err)
	}
	var ok []hook.Subscription
	for _, d := range good(decoded) {
		if cerr := CheckSubscription(d.sub, perms); cerr != nil {
			errs = append(errs, subscriptionManifestError(file, fmt.Sprintf("%s[%d]", fieldPrefix, d.index), d.hookKey, cerr))
			continue
		}
		ok = append(ok, d.sub)
	}
	return ok, warns, errors.Join(errs...)
}

// decodedSub is one decoded subscription with where it came from.
type decodedSub struct {
	sub     hook.Subscription
	index   int    // position in the array
	hookKey string // "hook", "name", or "" for the string shorthand
	// bad marks a subscription with shape errors (already reported); it is
	// returned only so the manifest can report contract problems too.
	bad bool
}

// good drops the subscriptions that had shape errors.
func good(decoded []decodedSub) []decodedSub {
	var out []decodedSub
	for _, d := range decoded {
		if !d.bad {
			out = append(out, d)
		}
	}
	return out
}

func decodeSubscriptions(file, prefix string, raw json.RawMessage) ([]decodedSub, []string, error) {
	p := &manifestParser{file: file}
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil, nil
	}
	if !json.Valid(raw) {
		p.fail(prefix, "is not valid JSON", `Send an array of subscriptions, e.g. [{"hook": "before_tool_call", "tool": "bash"}]`)
		return nil, nil, errors.Join(p.errs...)
	}
	const fix = `Write hooks as an array of subscriptions, e.g. [{"hook": "before_tool_call", "tool": "bash", "match": {"input_contains": "rm -rf"}}]`
	items, ok := p.array(prefix, raw, fix)
	if !ok {
		return nil, nil, errors.Join(p.errs...)
	}
	var out []decodedSub
	for i, it := range items {
		base := fmt.Sprintf("%s[%d]", prefix, i)
		if kindOf(it) == "a string" {
			var s string
			_ = json.Unmarshal(it, &s)
			if s == "" {
				p.fail(base, "empty hook name", "Name a hook: "+strings.Join(contract.HookNames(), ", "))
				continue
			}
			out = append(out, decodedSub{sub: hook.Subscription{Hook: s}, index: i})
			continue
		}
		obj, ok := p.object(base, it, fix)
		if !ok {
			continue
		}
		nerr := len(p.errs)
		d := p.subscription(base, i, obj)
		d.bad = len(p.errs) != nerr
		if !d.bad || d.hookKey != "" {
			out = append(out, d)
		}
	}
	return out, p.warns, errors.Join(p.errs...)
}

func (p *manifestParser) matcher(field string, v json.RawMessage) *hook.Matcher {
	obj, ok := p.object(field, v,
		`Write "match" as an object, e.g. {"input_contains": "rm -rf"} or {"input_equals": {"command": "ls"}}`)
	if !ok {
		return nil
	}
	m := &hook.Matcher{}
	for _, k := range obj.keys {
		if slices.Contains(contract.MatcherKeys, k) {
			continue
		}
		fix := `Use only "input_contains" (a substring of the tool input's JSON text) and "input_equals" (the exact input object)`
		if sug := suggest(k, contract.MatcherKeys); sug != "" {
			fix = fmt.Sprintf("Did you mean %q? ", sug) + fix
		}
		if strings.Contains(k, "regex") || strings.Contains(k, "pattern") || strings.Contains(k, "glob") {
			fix += "; patterns are not supported: match broadly here and decide in the hook handler"
		}
		p.fail(field+"."+k, fmt.Sprintf("unknown matcher key %q (allowed: %s)", k, strings.Join(contract.MatcherKeys, ", ")), fix)
	}
	if cv, ok := obj.get("input_contains"); ok {
		if s, ok := p.str(field+".input_contains", cv,
			`Write "input_contains" as a string that must occur in the tool input's JSON text, e.g. "rm -rf"`); ok {
			m.InputContains = &s
		}
	}
	if ev, ok := obj.get("input_equals"); ok {
		if kindOf(ev) != "an object" {
			p.fail(field+".input_equals", fmt.Sprintf(`"input_equals" must be a JSON object, got %s`, kindOf(ev)),
				`Give the exact tool input object, e.g. {"command": "ls"}`)
		} else {
			var buf bytes.Buffer
			_ = json.Compact(&buf, ev)
			m.InputEquals = json.RawMessage(buf.Bytes())
		}
	}
	return m
}

// parseHooks reads extension.hooks (SynapsCLI dialect) and checks each
// subscription against the contract and e.Permissions.
func (p *manifestParser) parseHooks(e *ExtensionManifest, obj *jsonObject) {
	if v, ok := obj.get("hooks"); ok {
		decoded, warns, err := decodeSubscriptions(p.file, "extension.hooks", v)
		p.warns = append(p.warns, warns...)
		if err != nil {
			p.errs = append(p.errs, Errors(err)...)
		}
		for _, d := range decoded {
			if !d.bad {
				e.Hooks = append(e.Hooks, d.sub)
			}
			if d.sub.Hook == "" {
				continue // already reported as empty
			}
			if err := CheckSubscription(d.sub, e.Permissions); err != nil {
				p.errs = append(p.errs, subscriptionManifestError(p.file, fmt.Sprintf("extension.hooks[%d]", d.index), d.hookKey, err))
			} else if err := CheckProtocol(d.sub.Hook, e.ProtocolVersion); err != nil {
				field := fmt.Sprintf("extension.hooks[%d]", d.index)
				if d.hookKey != "" {
					field += "." + d.hookKey
				}
				p.fail(field, err.Error(), `Set "protocol_version": 2 in the extension object`)
			}
		}
	}
}

// subscription reads one subscription object at base (index i of its
// array); the caller tells from p.errs whether it had errors.
func (p *manifestParser) subscription(base string, i int, obj *jsonObject) decodedSub {
	d := decodedSub{index: i}
	for _, k := range obj.keys {
		if slices.Contains(subscriptionKeys, k) {
			continue
		}
		if sug := suggest(k, subscriptionKeys); sug != "" {
			p.fail(base+"."+k, fmt.Sprintf("unknown subscription key %q", k),
				fmt.Sprintf(`Did you mean %q? A subscription holds "hook" (or "name"), "tool" and "match"`, sug))
		} else {
			p.warn(base+"."+k, fmt.Sprintf(`unknown subscription key %q is ignored; a subscription holds "hook" (or "name"), "tool" and "match"`, k))
		}
	}
	nameFix := `Name the hook as a string, e.g. "hook": "before_tool_call"`
	hv, hasHook := obj.get("hook")
	nv, hasName := obj.get("name")
	if !hasHook && !hasName {
		p.fail(base, `missing the hook name: neither "hook" nor "name" is set`,
			`Add "hook": one of `+strings.Join(contract.HookNames(), ", "))
	}
	var hook, name string
	if hasHook {
		hook, hasHook = p.str(base+".hook", hv, nameFix)
	}
	if hasName {
		name, hasName = p.str(base+".name", nv, nameFix)
	}
	switch {
	case hasHook && hasName && hook != name:
		p.fail(base+".name", fmt.Sprintf(`"hook" (%q) and "name" (%q) disagree`, hook, name), `Keep only one of them`)
	case hasHook:
		d.sub.Hook, d.hookKey = hook, "hook"
	case hasName:
		d.sub.Hook, d.hookKey = name, "name"
	}
	if d.hookKey != "" && d.sub.Hook == "" {
		p.fail(base+"."+d.hookKey, "empty hook name", "Name a hook: "+strings.Join(contract.HookNames(), ", "))
	}
	if tv, ok := obj.get("tool"); ok {
		const fix = `Name one tool as a string (its model-facing or runtime name), e.g. "tool": "bash"; leave "tool" out to see every tool`
		if s, ok := p.str(base+".tool", tv, fix); ok {
			if s == "" {
				p.fail(base+".tool", `"tool" is empty`, fix)
			}
			d.sub.Tool = s
		}
	}
	if mv, ok := obj.get("match"); ok {
		d.sub.Match = p.matcher(base+".match", mv)
	}
	return d
}
