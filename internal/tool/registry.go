package tool

import (
	"fmt"
	"sort"
	"sync"
)

// Registry holds the tools of one session. Built-ins are added first, so an
// extension tool whose sanitised name collides with a built-in is renamed
// (_2, _3 …) and can never shadow it.
type Registry struct {
	mu sync.RWMutex
	// byName maps model-facing names to tools; guarded by mu.
	byName map[string]entry
	// byRuntime maps runtime names to model-facing names; guarded by mu.
	byRuntime map[string]string
	// order is the model-facing names in insertion order; guarded by mu.
	order []string
}

type entry struct {
	tool Tool
	spec Spec
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry {
	return &Registry{byName: map[string]entry{}, byRuntime: map[string]string{}}
}

// Add registers t and returns its spec with the model-facing name filled
// in. Adding a second tool with the same runtime name is an error.
func (r *Registry) Add(t Tool) (Spec, error) {
	spec := t.Spec()
	if spec.RuntimeName == "" {
		return Spec{}, fmt.Errorf("tool has no runtime name")
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.add(t, spec)
}

// add registers t with spec; mu is held.
func (r *Registry) add(t Tool, spec Spec) (Spec, error) {
	if _, dup := r.byRuntime[spec.RuntimeName]; dup {
		return Spec{}, fmt.Errorf("tool %q is already registered", spec.RuntimeName)
	}
	base := SanitizeName(spec.RuntimeName)
	spec.Name = uniqueName(base, func(n string) bool { _, ok := r.byName[n]; return ok })
	r.byName[spec.Name] = entry{t, spec}
	r.byRuntime[spec.RuntimeName] = spec.Name
	r.order = append(r.order, spec.Name)
	return spec, nil
}

// Replace puts tools in place of every tool whose Source is source, in
// one step: a Lookup or a request built meanwhile sees the old set or the
// new one, never a part of either (an MCP server's tools/list_changed
// refresh). It returns each added tool's spec, or why it was not added.
func (r *Registry) Replace(source string, tools []Tool) ([]Spec, []error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.remove(source)
	specs := make([]Spec, len(tools))
	errs := make([]error, len(tools))
	for i, t := range tools {
		spec := t.Spec()
		if spec.RuntimeName == "" {
			errs[i] = fmt.Errorf("tool has no runtime name")
			continue
		}
		specs[i], errs[i] = r.add(t, spec)
	}
	return specs, errs
}

// Swap puts t in place of the tool of the same runtime name, under the
// same model-facing name and place, with t's spec (a tool whose spec
// changed: load_skill with more skills). Without such a tool it adds t.
func (r *Registry) Swap(t Tool) (Spec, error) {
	spec := t.Spec()
	r.mu.Lock()
	defer r.mu.Unlock()
	name, ok := r.byRuntime[spec.RuntimeName]
	if !ok {
		return r.add(t, spec)
	}
	spec.Name = name
	r.byName[name] = entry{t, spec}
	return spec, nil
}

// Remove drops every tool whose Source is source (an extension being
// reloaded or stopped).
func (r *Registry) Remove(source string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.remove(source)
}

// remove drops source's tools; mu is held.
func (r *Registry) remove(source string) {
	kept := r.order[:0]
	for _, n := range r.order {
		e := r.byName[n]
		if e.spec.Source == source {
			delete(r.byName, n)
			delete(r.byRuntime, e.spec.RuntimeName)
			continue
		}
		kept = append(kept, n)
	}
	r.order = kept
}

// Lookup finds a tool by model-facing or runtime name.
func (r *Registry) Lookup(name string) (Tool, Spec, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	if e, ok := r.byName[name]; ok {
		return e.tool, e.spec, true
	}
	if n, ok := r.byRuntime[name]; ok {
		e := r.byName[n]
		return e.tool, e.spec, true
	}
	return nil, Spec{}, false
}

// Specs returns every tool's spec in insertion order.
func (r *Registry) Specs() []Spec {
	r.mu.RLock()
	defer r.mu.RUnlock()
	out := make([]Spec, len(r.order))
	for i, n := range r.order {
		out[i] = r.byName[n].spec
	}
	return out
}

// Names returns the model-facing names, sorted.
func (r *Registry) Names() []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	out := append([]string(nil), r.order...)
	sort.Strings(out)
	return out
}

// Filter returns a new registry holding the tools keep accepts, under the
// same model-facing names (a subagent's allowlist of its parent's tools).
func (r *Registry) Filter(keep func(Spec) bool) *Registry {
	r.mu.RLock()
	defer r.mu.RUnlock()
	out := NewRegistry()
	for _, n := range r.order {
		e := r.byName[n]
		if keep(e.spec) {
			out.byName[n] = e
			out.byRuntime[e.spec.RuntimeName] = n
			out.order = append(out.order, n)
		}
	}
	return out
}
