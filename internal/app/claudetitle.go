package app

import (
	"fmt"

	"github.com/synaps-cli/synaps/internal/agent"
)

// titleFromHook takes a Claude UserPromptSubmit hook's sessionTitle: on
// the session's first prompt it is the session's title (what the session
// list and the resume picker show). A session that has a title already
// keeps it, and the user is told: synaps has no retitling yet.
func (a *App) titleFromHook(title string) {
	if a.Session == nil {
		return
	}
	if len(a.Session.View()) == 0 {
		a.Session.TitleNext(title)
		return
	}
	if a.opts.OnEvent != nil {
		a.opts.OnEvent(agent.Event{Type: agent.EventNotice, Text: fmt.Sprintf("a Claude hook titles the session %q; synaps titles a session by its first prompt only, so it keeps its title", title)})
	}
}
