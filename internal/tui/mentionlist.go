package tui

// The @ list, as in Claude Code: while the word being typed starts with
// "@", the project's files whose path matches the rest of it show under
// the input. ↑/↓ choose one, Tab or Enter put it in the input (a
// directory keeps the list open inside it), Esc closes the list for that
// word. The files are listed once per mention (a walk bounded in entries
// and time that skips what .gitignore ignores and hidden files unless
// the word asks for them), then filtered as the user types.

import (
	"context"
	"sort"
	"strconv"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/synaps-cli/synaps/internal/tool/builtin"
)

// Bounds of the walk behind the @ list.
const (
	mentionFilesMax  = 5000
	mentionWalkLimit = 300 * time.Millisecond
)

// mentionList is the @ list's state: the files listed for the mention,
// the chosen row, and the word Esc closed the list for.
type mentionList struct {
	dir    string
	files  []string
	sel    int
	word   string // the mention the selection belongs to
	closed string
}

// mentionWord is the @word the input ends with, without its "@", and
// whether there is one.
func mentionWord(input string) (string, bool) {
	i := strings.LastIndexAny(input, " \t\n")
	word := input[i+1:]
	if !strings.HasPrefix(word, "@") {
		return "", false
	}
	return word[1:], true
}

// mentionMatches are the paths to list for the input, best first; nil
// when the input does not end with a mention (or Esc closed its list).
func (m *model) mentionMatches() []string {
	typed, ok := mentionWord(m.input.Value())
	if !ok || m.app == nil || m.asking != promptNone {
		if m.mentions != nil {
			m.mentions.files, m.mentions.closed = nil, "" // listed again for the next mention
		}
		return nil
	}
	ml := m.mentions
	if ml == nil {
		ml = &mentionList{}
		m.mentions = ml
	}
	if ml.closed == "@"+typed {
		return nil
	}
	ml.closed = ""
	if ml.files == nil || ml.dir != m.app.WorkDir {
		ctx, cancel := context.WithTimeout(m.ctx, mentionWalkLimit)
		ml.files, ml.dir = builtin.ProjectFiles(ctx, m.app.WorkDir, mentionFilesMax), m.app.WorkDir
		cancel()
		if ml.files == nil {
			ml.files = []string{}
		}
	}
	if typed != ml.word {
		ml.word, ml.sel = typed, 0
	}
	return rankMentions(ml.files, typed)
}

// rankMentions filters paths by what was typed, case ignored: paths that
// start with it first, then those whose file name does, then those that
// hold it anywhere; shorter paths first within each, then by name.
// Hidden paths show only when the typed text has a "." part.
func rankMentions(paths []string, typed string) []string {
	q := strings.ToLower(typed)
	hidden := strings.HasPrefix(q, ".") || strings.Contains(q, "/.")
	type hit struct {
		p    string
		rank int
	}
	var hits []hit
	for _, p := range paths {
		if !hidden && (strings.HasPrefix(p, ".") || strings.Contains(p, "/.")) {
			continue
		}
		lp := strings.ToLower(p)
		base := lp[strings.LastIndexByte(strings.TrimSuffix(lp, "/"), '/')+1:]
		switch {
		case strings.HasPrefix(lp, q):
			hits = append(hits, hit{p, 0})
		case strings.HasPrefix(base, q):
			hits = append(hits, hit{p, 1})
		case strings.Contains(lp, q):
			hits = append(hits, hit{p, 2})
		}
	}
	sort.SliceStable(hits, func(i, j int) bool {
		a, b := hits[i], hits[j]
		if a.rank != b.rank {
			return a.rank < b.rank
		}
		if len(a.p) != len(b.p) {
			return len(a.p) < len(b.p)
		}
		return a.p < b.p
	})
	out := make([]string, len(hits))
	for i, h := range hits {
		out[i] = h.p
	}
	return out
}

// mentionKey handles the keys the @ list takes while it shows; ok is
// false for every other key (and when no list shows).
func (m *model) mentionKey(k tea.KeyPressMsg) (tea.Cmd, bool) {
	ms := m.mentionMatches()
	if len(ms) == 0 {
		return nil, false
	}
	ml := m.mentions
	ml.sel = min(ml.sel, len(ms)-1)
	switch k.String() {
	case "up", "ctrl+p":
		ml.sel = (ml.sel + len(ms) - 1) % len(ms)
	case "down", "ctrl+n":
		ml.sel = (ml.sel + 1) % len(ms)
	case "tab", "enter", "ctrl+m":
		v := m.input.Value()
		i := strings.LastIndexAny(v, " \t\n")
		p := ms[ml.sel]
		if !strings.HasSuffix(p, "/") {
			p += " "
		}
		m.input.SetValue(v[:i+1] + "@" + p)
	case "esc":
		typed, _ := mentionWord(m.input.Value())
		ml.closed = "@" + typed
	default:
		return nil, false
	}
	return nil, true
}

// mentionLines draws the @ list under the input.
func (m *model) mentionLines(w int) []string {
	ms := m.mentionMatches()
	if len(ms) == 0 {
		return nil
	}
	sel := min(m.mentions.sel, len(ms)-1)
	// The window of matchesShown rows that holds the chosen one.
	from := max(0, sel-matchesShown+1)
	var l []string
	for i := from; i < len(ms) && i < from+matchesShown; i++ {
		if i == sel {
			l = append(l, fit(m.st.accent.Render("› ")+ms[i], w))
		} else {
			l = append(l, fit("  "+m.st.dim.Render(ms[i]), w))
		}
	}
	if more := len(ms) - from - len(l); more > 0 {
		l = append(l, m.st.dim.Render("  … "+strconv.Itoa(more)+" more"))
	}
	return l
}
