package tui

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
)

// historyKept is how many inputs a project's history file keeps.
const historyKept = 1000

// history is the input history, browsed with up and down. Browsing
// starts from the newest entry and keeps what was being typed (the
// draft) to come back to at the bottom.
type history struct {
	entries []string
	// file is where the project's history is kept ("" until known);
	// unsaved are inputs sent before it was known.
	file    string
	unsaved []string
	// pos is the entry shown; len(entries) means the draft.
	pos   int
	draft string
}

// add records a sent input (not repeating the last one) and stops
// browsing.
func (h *history) add(s string) {
	if n := len(h.entries); n == 0 || h.entries[n-1] != s {
		h.entries = append(h.entries, s)
		h.unsaved = append(h.unsaved, s)
		h.save()
	}
	h.pos, h.draft = len(h.entries), ""
}

// seed puts a resumed session's prompts before the entries, in their
// order, so up reaches them even when they were typed in another
// project; it leaves out those already in the history and saves nothing
// (they are in the session file).
func (h *history) seed(prompts []string) {
	have := make(map[string]bool, len(h.entries))
	for _, e := range h.entries {
		have[e] = true
	}
	var add []string
	for _, p := range prompts {
		if !have[p] {
			have[p] = true
			add = append(add, p)
		}
	}
	h.entries = append(add, h.entries...)
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

// historyFile is the project's input history: one per working
// directory, under the base directory, as JSON strings one per line.
func historyFile(baseDir, workDir string) string {
	sum := sha256.Sum256([]byte(workDir))
	return filepath.Join(baseDir, "history", hex.EncodeToString(sum[:8])+".jsonl")
}

// open loads the history kept in file, before what was typed already,
// and keeps saving there. A history that cannot be read or written is
// not worth stopping the session for: it is an empty one.
func (h *history) open(file string) {
	var old []string
	if f, err := os.Open(file); err == nil {
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 64*1024), 4<<20)
		for sc.Scan() {
			var s string
			if json.Unmarshal(sc.Bytes(), &s) == nil && s != "" {
				old = append(old, s)
			}
		}
		f.Close()
	}
	if len(old) > historyKept {
		old = old[len(old)-historyKept:]
	}
	h.entries = append(old, h.entries...)
	h.pos = len(h.entries)
	h.file = file
	if len(old) >= historyKept {
		h.rewrite()
	}
	h.save()
}

// save appends the unsaved inputs to the file.
func (h *history) save() {
	if h.file == "" || len(h.unsaved) == 0 {
		return
	}
	if err := os.MkdirAll(filepath.Dir(h.file), 0o700); err != nil {
		return
	}
	f, err := os.OpenFile(h.file, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		return
	}
	defer f.Close()
	for _, s := range h.unsaved {
		b, _ := json.Marshal(s)
		f.Write(append(b, '\n'))
	}
	h.unsaved = nil
}

// rewrite keeps the file to the last historyKept entries.
func (h *history) rewrite() {
	keep := h.entries[max(0, len(h.entries)-historyKept):]
	tmp := h.file + ".tmp"
	f, err := os.OpenFile(tmp, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o600)
	if err != nil {
		return
	}
	for _, s := range keep {
		b, _ := json.Marshal(s)
		f.Write(append(b, '\n'))
	}
	if f.Close() == nil {
		os.Rename(tmp, h.file)
	}
	h.unsaved = nil
}
