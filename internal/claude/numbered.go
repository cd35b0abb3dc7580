package claude

// Handlers are numbered per event, from 0, in file order across the
// event's matcher groups: the number in a hook's stable id
// (hook.ClaudeHookID), by which one command can be listed and turned
// off while the rest of its file runs.

// Numbered is one command hook of a file with its place.
type Numbered struct {
	Event string
	// N is the handler's number within Event.
	N       int
	Matcher string
	Handler Handler
}

// Numbered lists the file's command hooks, event by event in the order
// of Events, each event's in file order.
func (h Hooks) Numbered() []Numbered {
	var out []Numbered
	for _, ev := range Events {
		n := 0
		for _, g := range h.Events[ev] {
			for _, hd := range g.Handlers {
				out = append(out, Numbered{Event: ev, N: n, Matcher: g.Matcher.String(), Handler: hd})
				n++
			}
		}
	}
	return out
}

// Without returns the hooks with the handlers off reports dropped
// (events and groups left empty go too); h is not changed. A dropped
// handler is never started.
func (h Hooks) Without(off func(event string, n int) bool) Hooks {
	out := Hooks{File: h.File, Events: map[string][]Group{}}
	for ev, groups := range h.Events {
		n := 0
		for _, g := range groups {
			kept := Group{Matcher: g.Matcher}
			for _, hd := range g.Handlers {
				if !off(ev, n) {
					kept.Handlers = append(kept.Handlers, hd)
				}
				n++
			}
			if len(kept.Handlers) > 0 {
				out.Events[ev] = append(out.Events[ev], kept)
			}
		}
	}
	return out
}

// EventsOf lists the Claude events a synaps hook fires as (after_tool_call
// is PostToolUse, or PostToolUseFailure for a failed call); none for a
// hook Claude has no event for.
func EventsOf(hookName string) []string {
	return hookEvents(hookName)
}

// TimeoutOf is how long a handler of event may run, in seconds: its own
// timeout, else the type's and event's default (as Link.Handle gives it).
func TimeoutOf(event string, h Handler) float64 {
	if h.Timeout > 0 {
		return h.Timeout
	}
	return defaultTimeout(h.Type, event)
}

// WithIDs returns the hooks with each handler's ID set to id(event, n),
// n its Numbered number; h is not changed. Without keeps the ids, so a
// handler keeps its id when an earlier one is turned off.
func (h Hooks) WithIDs(id func(event string, n int) string) Hooks {
	out := Hooks{File: h.File, Events: map[string][]Group{}}
	for ev, groups := range h.Events {
		n := 0
		for _, g := range groups {
			c := Group{Matcher: g.Matcher, Handlers: make([]Handler, len(g.Handlers))}
			for i, hd := range g.Handlers {
				hd.ID = id(ev, n)
				c.Handlers[i] = hd
				n++
			}
			out.Events[ev] = append(out.Events[ev], c)
		}
	}
	return out
}
