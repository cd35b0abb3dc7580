package tui

import (
	"fmt"

	"github.com/synaps-cli/synaps/internal/agent"
	"github.com/synaps-cli/synaps/internal/llm"
	"github.com/synaps-cli/synaps/internal/plural"
)

// printHistory prints an earlier conversation (a resumed session) as it
// looked when it happened: the user's messages, the answers rendered,
// each tool call with its collapsed output. Thinking is left out, as the
// live transcript shows it only in passing; durations were not saved.
func (m *model) printHistory(msgs []llm.Message) {
	results := map[string]llm.Block{}
	for _, msg := range msgs {
		for _, b := range msg.Content {
			if b.Type == llm.BlockToolResult {
				results[b.ToolUseID] = b
			}
		}
	}
	var prompts []string
	for _, msg := range msgs {
		if msg.Role == llm.RoleUser {
			if text := msg.Text(); text != "" {
				m.print(m.userLines(text))
				prompts = append(prompts, text)
			}
			continue
		}
		for _, b := range msg.Content {
			switch b.Type {
			case llm.BlockText:
				if text := sanitize(b.Text); text != "" {
					m.printW(func(w int) string { return m.md.render(text, w) })
				}
			case llm.BlockToolUse:
				res, ok := results[b.ID]
				tc := &agent.ToolCall{ID: b.ID, Name: b.Name, Input: b.Input, Output: res.Content, IsError: res.IsError, Duration: noDuration}
				if !ok {
					tc.Output, tc.IsError = "(no result was saved)", true
				}
				m.printW(func(w int) string { return joinLines(toolLines(tc, m.st, w-1)) })
				m.expandTool(tc, nil)
				m.printKids(b.ID)
			}
		}
	}
	m.hist.seed(prompts)
	m.print(m.st.dim.Render("· the conversation above was resumed; it goes on from here"))
}

// printKids shows, collapsed, the subagents an earlier agent call
// started: one line each (`synaps sessions show` prints their
// transcripts).
func (m *model) printKids(callID string) {
	if m.app == nil || m.app.Session == nil {
		return
	}
	for _, sa := range m.app.Session.Subagents {
		if sa.ParentToolUseID != callID {
			continue
		}
		line := fmt.Sprintf("  ⎿ agent %s (%s) · %s · %s · %s tokens", sanitize(sa.Type), sa.ID,
			oneLine(sa.Description, 40), plural.Count(len(sa.Messages), "message"), formatTokens(sa.Usage.InputTokens+sa.Usage.OutputTokens))
		m.print(m.st.dim.Render(line))
	}
}
