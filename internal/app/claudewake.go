package app

import (
	"fmt"

	"github.com/synaps-cli/synaps/internal/agent"
)

// wakeFromHook gives the model what a Claude hook running in the
// background said (async additionalContext, an asyncRewake hook's exit
// 2): it joins the running turn as steered text does, after the next
// tool results, or, left at the turn's end, is sent by the front ends
// that run leftover steered text (host.Session) as a message of its own.
// An idle session is not woken: the text waits for the next turn. The
// user sees it as a notice.
func (a *App) wakeFromHook(id, text string) {
	if a.opts.OnEvent != nil {
		a.opts.OnEvent(agent.Event{Type: agent.EventNotice, Text: fmt.Sprintf("%s hook (in the background): %s", id, text)})
	}
	if ag := a.Agent; ag != nil {
		ag.Steer(fmt.Sprintf("<hook-feedback from=%q>\n%s\n</hook-feedback>", id, text))
	}
}
