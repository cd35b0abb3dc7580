package app

import "github.com/synaps-cli/synaps/internal/claude"

// newPrompt starts a user prompt for Claude hooks' payloads: Claude Code
// names each prompt with a fresh UUID (prompt_id) that every event after
// it carries until the next one; none before the first.
func (c *claudeHooks) newPrompt() {
	id := claude.NewUUID()
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.promptKept {
		// A command's expansion began this prompt (keepPrompt): the
		// send that follows is the same prompt.
		c.promptKept = false
		return
	}
	c.promptID = id
}

// keepPrompt makes the next newPrompt keep the current id.
func (c *claudeHooks) keepPrompt() {
	c.mu.Lock()
	c.promptKept = true
	c.mu.Unlock()
}

// prompt is the current prompt's id ("" before the first).
func (c *claudeHooks) prompt() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.promptID
}
