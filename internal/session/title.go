package session

import (
	"strings"

	"github.com/synaps-cli/synaps/internal/llm"
)

// A session's title, what the listing shows of it: the first user
// message, on one line and cut short, or what the user typed when that
// message is a command's expansion (TitleNext).

// TitleNext titles the session with title, what the user typed, when
// the next user message is its first: that message is what a command
// expanded to, and the session list should say what the user asked.
func (s *Session) TitleNext(title string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.title = strings.TrimSpace(title)
}

func firstText(m llm.Message) string {
	for _, b := range m.Content {
		if b.Type == llm.BlockText && !b.Inject && strings.TrimSpace(b.Text) != "" {
			return b.Text
		}
	}
	return ""
}

func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}
