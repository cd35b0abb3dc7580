package app

import (
	"fmt"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/synaps-cli/synaps/internal/agent"
	"github.com/synaps-cli/synaps/internal/llm"
	"github.com/synaps-cli/synaps/internal/plural"
	"github.com/synaps-cli/synaps/internal/skill"
)

// charsPerToken is the estimate /context counts with: about four
// characters a token for English and code, the rule of thumb the
// providers give. The model's own count is shown beside it once a
// request has been made.
const charsPerToken = 4

// contextPart is one part of what a request carries.
type contextPart struct {
	name  string
	chars int
	note  string
}

// contextParts splits what the next request carries into the parts a
// user can change: the system prompt (identity, environment, summary),
// each instructions file, the skills index, the tools' schemas, the
// conversation's text, tool calls and tool results.
func (a *App) contextParts() []contextPart {
	ident, _ := a.Config.Get("identity")
	index := skill.Index(a.Skills)
	var files []agent.Instructions
	agent.SystemPrompt(agent.PromptInput{Identity: ident, WorkDir: a.WorkDir, BaseDir: a.BaseDir, SkillsIndex: index, Now: time.Now(),
		Loaded: func(f agent.Instructions) { files = append(files, f) }})
	bare := agent.SystemPrompt(agent.PromptInput{Identity: ident, WorkDir: a.WorkDir, Now: time.Now()})
	// bare read the project's file too (it is WorkDir's): take it out.
	_, projectText := contextText(a.WorkDir)
	base := len(bare) - len(projectText)
	if a.opts.AppendSystemPrompt != "" {
		base += len(a.opts.AppendSystemPrompt) + 1
	}
	if a.Session != nil && a.Session.Summary != "" {
		base += len(a.Session.Summary)
	}
	parts := []contextPart{{name: "system prompt", chars: base, note: "identity, environment" + cond(a.Session != nil && a.Session.Summary != "", ", compaction summary")}}
	instr := 0
	for _, f := range files {
		dir := a.WorkDir
		if f.Scope == "User" {
			dir = a.BaseDir
		}
		_, text := contextText(dir)
		instr += len(text)
		parts = append(parts, contextPart{name: "instructions (" + strings.ToLower(f.Scope) + ")", chars: len(text), note: f.Path})
	}
	if len(files) == 0 {
		parts = append(parts, contextPart{name: "instructions", note: "no AGENTS.md or CLAUDE.md; /init writes one"})
	}
	parts = append(parts, contextPart{name: "skills index", chars: len(index), note: plural.Count(len(a.Skills), "skill")})
	if a.Tools != nil {
		n, specs := 0, a.Tools.Specs()
		for _, s := range specs {
			n += len(s.Name) + len(s.Description) + len(s.InputSchema)
		}
		parts = append(parts, contextPart{name: "tools' schemas", chars: n, note: plural.Count(len(specs), "tool")})
	}
	var text, calls, results, count int
	if a.Session != nil {
		msgs := a.Session.Messages()
		count = len(msgs)
		for _, m := range msgs {
			for _, b := range m.Content {
				switch b.Type {
				case llm.BlockText:
					text += len(b.Text)
				case llm.BlockThinking:
					text += len(b.Thinking)
				case llm.BlockToolUse:
					calls += len(b.Name) + len(b.Input)
				case llm.BlockToolResult:
					results += len(b.Content)
				}
			}
		}
	}
	parts = append(parts,
		contextPart{name: "messages", chars: text, note: plural.Count(count, "message")},
		contextPart{name: "tool calls", chars: calls},
		contextPart{name: "tool results", chars: results})
	return parts
}

func cond(ok bool, s string) string {
	if ok {
		return s
	}
	return ""
}

// contextText is the instructions text of dir as the system prompt
// holds it.
func contextText(dir string) (path, text string) {
	p := agent.SystemPrompt(agent.PromptInput{WorkDir: dir, Identity: "x"})
	_, after, ok := strings.Cut(p, "\n# The project's instructions (")
	if !ok {
		return "", ""
	}
	path, text, _ = strings.Cut(after, ")\n")
	return path, strings.TrimSuffix(text, "\n")
}

// contextWindow is the model's context window in tokens, 0 when synaps
// does not know it.
func contextWindow(model string) int {
	id := model
	if _, rest, ok := strings.Cut(model, "/"); ok {
		id = rest
	}
	switch {
	case strings.HasPrefix(id, "claude-") && strings.Contains(id, "[1m]"):
		return 1_000_000
	case strings.HasPrefix(id, "claude-"):
		return 200_000
	case strings.HasPrefix(id, "gpt-4.1"), strings.HasPrefix(id, "gpt-5"):
		return 400_000
	case strings.HasPrefix(id, "gpt-4o"), strings.HasPrefix(id, "o3"), strings.HasPrefix(id, "o4"):
		return 128_000
	}
	return 0
}

// formatContext is /context: each part's estimated tokens and share of
// the model's window.
func (a *App) formatContext() string {
	parts := a.contextParts()
	window := contextWindow(a.Model)
	total := 0
	for _, p := range parts {
		total += (p.chars + charsPerToken - 1) / charsPerToken
	}
	var b strings.Builder
	if window > 0 {
		fmt.Fprintf(&b, "context: ~%d of %d tokens (%.1f%%) · model %s\n", total, window, pct(total, window), a.Model)
	} else {
		fmt.Fprintf(&b, "context: ~%d tokens · model %s (its window is not known to synaps, so no share is shown)\n", total, dash(a.Model))
	}
	w := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "PART\tTOKENS\tSHARE\t")
	for _, p := range parts {
		t := (p.chars + charsPerToken - 1) / charsPerToken
		share := "-"
		if window > 0 {
			share = fmt.Sprintf("%.1f%%", pct(t, window))
		}
		fmt.Fprintf(w, "%s\t~%d\t%s\t%s\n", p.name, t, share, p.note)
	}
	w.Flush()
	b.WriteString("(estimates at ~4 characters a token; extensions may add to the system prompt when the session starts)\n")
	if a.Agent != nil {
		if u := a.Agent.LastUsage(); u != (llm.Usage{}) {
			in := u.InputTokens + u.CacheReadTokens + u.CacheWriteTokens
			fmt.Fprintf(&b, "the last request, as the model counted it: %d input tokens", in)
			if window > 0 {
				fmt.Fprintf(&b, " (%.1f%%)", pct(in, window))
			}
			b.WriteString("\n")
		}
	}
	return b.String()
}

func pct(n, of int) float64 { return 100 * float64(n) / float64(of) }
