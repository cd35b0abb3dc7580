package app

import (
	"fmt"

	"github.com/synaps-cli/synaps/internal/agent"
)

// wakeFromHook gives the model what a Claude hook running in the
// background said (async additionalContext, an asyncRewake hook's exit
// 2), as Claude Code does: it joins the running turn as steered text
// does, after the next tool results. With Options.OnWake (the terminal
// UI and chat set it, through host.Session, which first joins a running
// turn), an idle session is woken: the front-end sends the text as a
// message of its own, passing UserPromptSubmit hooks like any. Without
// it the text waits for the next turn, or, left at a turn's end, is sent
// by host.Session as a message of its own. The user sees it as a notice.
func (a *App) wakeFromHook(id, text string) {
	if a.opts.OnEvent != nil {
		a.opts.OnEvent(agent.Event{Type: agent.EventNotice, Text: fmt.Sprintf("%s hook (in the background): %s", id, text)})
	}
	feedback := fmt.Sprintf("<hook-feedback from=%q>\n%s\n</hook-feedback>", id, text)
	if a.opts.OnWake != nil {
		a.opts.OnWake(feedback)
		return
	}
	if ag := a.Agent; ag != nil {
		ag.Steer(feedback)
	}
}
