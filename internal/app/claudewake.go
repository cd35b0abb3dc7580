package app

import (
	"fmt"

	"github.com/synaps-cli/synaps/internal/agent"
)

// wakeFromHook gives the model what a Claude hook running in the
// background said (async additionalContext, an asyncRewake hook's exit
// 2): it joins the running turn as steered text does, after the next
// tool results; a session that is idle when it comes takes it with its
// next message (and a front end that runs steered text left at a turn's
// end — the terminal UI, chat, rpc, the daemon — sends it as a message of
// its own). The user sees it as a notice.
func (a *App) wakeFromHook(id, text string) {
	if a.opts.OnEvent != nil {
		a.opts.OnEvent(agent.Event{Type: agent.EventNotice, Text: fmt.Sprintf("%s hook (in the background): %s", id, text)})
	}
	if ag := a.Agent; ag != nil {
		ag.Steer(fmt.Sprintf("<hook-feedback from=%q>\n%s\n</hook-feedback>", id, text))
	}
}
