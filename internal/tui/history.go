package tui

// history is the input history, browsed with up and down. Browsing
// starts from the newest entry and keeps what was being typed (the
// draft) to come back to at the bottom.
type history struct {
	entries []string
	// pos is the entry shown; len(entries) means the draft.
	pos   int
	draft string
}

// add records a sent input (not repeating the last one) and stops
// browsing.
func (h *history) add(s string) {
	if n := len(h.entries); n == 0 || h.entries[n-1] != s {
		h.entries = append(h.entries, s)
	}
	h.pos, h.draft = len(h.entries), ""
}

// browsing reports whether an older entry is shown.
func (h *history) browsing() bool { return h.pos < len(h.entries) }

// prev moves to the older entry; current is the input as it is now. ok is
// false at the oldest entry.
func (h *history) prev(current string) (string, bool) {
	if h.pos == 0 {
		return "", false
	}
	if !h.browsing() {
		h.draft = current
	}
	h.pos--
	return h.entries[h.pos], true
}

// next moves to the newer entry, and finally back to the draft. ok is
// false when not browsing.
func (h *history) next() (string, bool) {
	if !h.browsing() {
		return "", false
	}
	h.pos++
	if h.pos == len(h.entries) {
		return h.draft, true
	}
	return h.entries[h.pos], true
}

// reset stops browsing, forgetting the draft (ctrl+c cleared the input).
func (h *history) reset() { h.pos, h.draft = len(h.entries), "" }
