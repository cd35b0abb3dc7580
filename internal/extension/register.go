package extension

// An extension's tools in the session's registry: registered when its
// start ends (from its answer or the initialize cache), registered again
// when a fresh answer replaced a cached one, and waited for before a
// request goes out.

import (
	"context"
	"slices"
	"strings"

	"github.com/synaps-cli/synaps/internal/contract"
	"github.com/synaps-cli/synaps/internal/tool"
)

// register puts e's tools in the registry, in place of any it had (one
// step: a request built meanwhile sees the old set or the new one), and
// returns the names it had and has now.
func (h *Host) register(e *Extension) (before, after []string) {
	decls, _ := e.declared()
	tools := make([]tool.Tool, len(decls))
	for i, d := range decls {
		tools[i] = &extTool{ext: e, decl: d}
	}
	specs, errs := h.registry.Replace(e.source(), tools)
	var names []string
	for i, d := range decls {
		if errs[i] != nil {
			e.log.note("tool %s not registered: %v", d.Name, errs[i])
			continue
		}
		names = append(names, specs[i].Name)
	}
	h.mu.Lock()
	before = h.toolNames[e.ID()]
	h.toolNames[e.ID()] = names
	h.mu.Unlock()
	return before, names
}

// redeclared follows an extension of the running set whose process,
// started from a cached answer, declared other tools or hooks: the
// registry and the hook chain take what it declares now, so the model's
// next request lists its tools as they are.
//
// The user is told, with the tools it added and removed: the model's
// tools changed under the session, which its log alone would keep quiet.
func (h *Host) redeclared(e *Extension) {
	if !h.current(e) {
		return
	}
	before, after := h.register(e)
	h.resetChain()
	h.env.notify.say("extension %s answered differently from its cached answer; it now offers %s (the model sees them from its next request)", e.ID(), toolChange(before, after))
}

// toolChange says what an extension offers now, against before.
func toolChange(before, after []string) string {
	var added, removed []string
	for _, n := range after {
		if !slices.Contains(before, n) {
			added = append(added, n)
		}
	}
	for _, n := range before {
		if !slices.Contains(after, n) {
			removed = append(removed, n)
		}
	}
	now := "no tools"
	if len(after) > 0 {
		now = strings.Join(after, ", ")
	}
	var change []string
	if len(added) > 0 {
		change = append(change, "added "+strings.Join(added, ", "))
	}
	if len(removed) > 0 {
		change = append(change, "removed "+strings.Join(removed, ", "))
	}
	if len(change) == 0 {
		return now + " (the same tools; their descriptions, schemas or hooks changed)"
	}
	return now + " (" + strings.Join(change, "; ") + ")"
}

// AwaitTools waits until every extension still starting that may register
// tools (its manifest grants tools.register) has started or failed, or ctx
// ends. The agent calls it before each model request, so no request goes
// out without the tools of an extension started in the background (Begin).
func (h *Host) AwaitTools(ctx context.Context) {
	h.mu.Lock()
	exts := h.exts
	h.mu.Unlock()
	for _, e := range exts {
		if !e.started() && e.plugin.Manifest.Extension.Permissions.Has(contract.PermToolsRegister) {
			e.awaitStart(ctx)
		}
	}
}
