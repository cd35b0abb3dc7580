package agent

import (
	"sync"

	"github.com/synaps-cli/synaps/internal/llm"
)

// nextContext holds hook context for the next message the user sends —
// PostModelSwitch's additionalContext, said after /model while no turn
// runs — so that it reaches the new model with that message, without
// starting a turn of its own. Its own lock: /model runs on the UI's
// goroutine.
type nextContext struct {
	mu    sync.Mutex
	texts []string
}

// AddContext keeps text for the next message the user sends: it joins
// that message as an inject block, as a before_message inject does.
func (a *Agent) AddContext(text string) {
	if text == "" {
		return
	}
	a.next.mu.Lock()
	a.next.texts = append(a.next.texts, text)
	a.next.mu.Unlock()
}

// takeContext returns the kept texts as inject blocks and forgets them.
func (a *Agent) takeContext() []llm.Block {
	a.next.mu.Lock()
	defer a.next.mu.Unlock()
	var out []llm.Block
	for _, t := range a.next.texts {
		out = append(out, llm.Block{Type: llm.BlockText, Text: t, Inject: true})
	}
	a.next.texts = nil
	return out
}
