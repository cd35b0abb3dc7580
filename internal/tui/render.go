package tui

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/synaps-cli/synaps/internal/agent"
	"github.com/synaps-cli/synaps/internal/app"
	"github.com/synaps-cli/synaps/internal/hook"
	"github.com/synaps-cli/synaps/internal/llm"
	"github.com/synaps-cli/synaps/internal/plural"
	"github.com/synaps-cli/synaps/internal/tool"
)

// Sizes of the collapsed renderings.
const (
	// summaryMax is the longest input summary, in cells, before the width
	// of the terminal cuts it further.
	summaryMax = 80
	// previewLines is how many lines of tool output a finished call shows.
	previewLines = 3
)

// inputSummary is a one-line description of a tool call's input (see
// agent.InputSummary), cut to summaryMax cells.
func inputSummary(name string, input []byte) string {
	return oneLine(agent.InputSummary(name, input, 0), summaryMax)
}

// oneLine makes s safe and short for one line of the terminal: escape
// sequences and control characters go, the first line stays ("…" marks
// that more followed), and it is cut to max cells.
func oneLine(s string, max int) string {
	s = strings.TrimSpace(sanitize(s))
	more := false
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s, more = strings.TrimSpace(s[:i]), true
	}
	if more {
		s += " …"
	}
	return ansi.Truncate(s, max, "…")
}

// sanitize strips terminal escape sequences and control characters other
// than newlines from text that came from outside (tool output, the
// model), and turns tabs into spaces, so it cannot move the cursor or
// restyle the screen.
func sanitize(s string) string { return agent.Printable(s) }

// preview collapses tool output to its first n lines; more is how many
// lines were left out. Trailing blank lines do not count.
func preview(out string, n int) (lines []string, more int) {
	out = strings.TrimRight(sanitize(out), "\n ")
	if out == "" {
		return nil, 0
	}
	all := strings.Split(out, "\n")
	if len(all) <= n {
		return all, 0
	}
	return all[:n], len(all) - n
}

// formatDuration is short: "7ms", "1.2s", "2m05s".
func formatDuration(d time.Duration) string {
	switch {
	case d < time.Millisecond:
		return "<1ms"
	case d < time.Second:
		return fmt.Sprintf("%dms", d.Milliseconds())
	case d < time.Minute:
		return fmt.Sprintf("%.1fs", d.Seconds())
	default:
		d = d.Round(time.Second)
		return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
	}
}

// blockedReason is the block reason without the "Tool call blocked by
// extension X: " the model sees.
func blockedReason(extID, output string) string {
	return hook.BlockReason(output)
}

// toolLines renders a finished tool call for the transcript: a header
// with the outcome, name, input summary and duration; a line per
// extension that blocked, modified or replaced it; then the collapsed
// output. width is the terminal's; 0 means do not cut.
func toolLines(tc *agent.ToolCall, st styles, width int) []string {
	return toolLinesN(tc, st, width, previewLines, agent.DiffPreviewLines)
}

// toolLinesN is toolLines showing outN lines of output and diffN lines
// of the diff (the transcript view shows them all).
func toolLinesN(tc *agent.ToolCall, st styles, width, outN, diffN int) []string {
	summary := inputSummary(tc.Name, tc.Input)
	icon := st.ok.Render("✓")
	if tc.IsError || tc.BlockedBy != "" {
		icon = st.bad.Render("✗")
	}
	header := icon + " " + st.tool.Render(tc.Name)
	if summary != "" {
		header += " " + summary
	}
	if tc.Duration != noDuration {
		header += st.dim.Render(" · " + formatDuration(tc.Duration))
	}
	lines := []string{fit(header, width)}
	mark := func(s string) { lines = append(lines, fit("  "+s, width)) }

	if tc.BlockedBy != "" {
		mark(st.bad.Render("✗ blocked by "+tc.BlockedBy) + ": " + oneLine(blockedReason(tc.BlockedBy, tc.Output), 200))
		return lines
	}
	if len(tc.ModifiedBy) > 0 {
		m := "✎ modified by " + strings.Join(tc.ModifiedBy, ", ")
		if asked := inputSummary(tc.Name, tc.InputRequested); asked != summary && asked != "" {
			m += " (asked: " + asked + ")"
		}
		mark(st.warn.Render(m))
	}
	if len(tc.ReplacedBy) > 0 {
		mark(st.warn.Render("⇄ output replaced by " + strings.Join(tc.ReplacedBy, ", ")))
	}
	out, more := preview(tc.Output, outN)
	for _, l := range out {
		lines = append(lines, fit(st.dim.Render("  │ ")+l, width))
	}
	if more > 0 {
		lines = append(lines, st.dim.Render(fmt.Sprintf("  │ … %s (ctrl+o shows them)", plural.Count(more, "more line"))))
	}
	if tc.Diff != nil && !tc.IsError {
		lines = append(lines, diffLinesN(tc.Diff, st, width, diffN)...)
	}
	return lines
}

// diffLines renders what a call changed in a file under its output: a
// summary, then the diff's first lines with their numbers, removed lines
// "-" in red and added "+" in green, collapsed after
// agent.DiffPreviewLines like long output.
func diffLines(d *tool.Diff, st styles, width int) []string {
	return diffLinesN(d, st, width, agent.DiffPreviewLines)
}

// diffLinesN is diffLines showing n lines of the diff.
func diffLinesN(d *tool.Diff, st styles, width, n int) []string {
	bar := st.dim.Render("  │ ")
	lines := []string{fit(bar+st.dim.Render(agent.DiffSummary(d)), width)}
	shown, more := agent.DiffPreview(d, n)
	for _, l := range shown {
		text := strings.TrimRight(l.Number+" "+l.Kind+" "+l.Text, " ")
		switch l.Kind {
		case tool.DiffRemoved:
			text = st.bad.Render(text)
		case tool.DiffAdded:
			text = st.ok.Render(text)
		default:
			text = st.dim.Render(text)
		}
		lines = append(lines, fit(bar+text, width))
	}
	if more > 0 {
		lines = append(lines, st.dim.Render(fmt.Sprintf("  │ … %s (ctrl+o shows them)", plural.Count(more, "more diff line"))))
	}
	return lines
}

// diffCollapsed reports whether a call's diff shows cut short, so that
// ctrl+o has more of it to show.
func diffCollapsed(tc *agent.ToolCall) bool {
	return tc.Diff != nil && !tc.IsError && len(tc.Diff.Lines) > agent.DiffPreviewLines
}

// noDuration marks a tool call whose duration is not known (one of a
// resumed session): toolLines shows none.
const noDuration time.Duration = -1

// joinLines joins rendered lines for printing.
func joinLines(lines []string) string { return strings.Join(lines, "\n") }

// fit cuts a styled line to width cells; width 0 leaves it whole.
func fit(s string, width int) string {
	if width <= 0 {
		return s
	}
	return ansi.Truncate(s, width, "…")
}

// formatTokens is a compact token count: 950, 12.3k, 1.2M.
func formatTokens(n int) string {
	switch {
	case n < 1000:
		return fmt.Sprint(n)
	case n < 1_000_000:
		return fmt.Sprintf("%.1fk", float64(n)/1000)
	default:
		return fmt.Sprintf("%.1fM", float64(n)/1_000_000)
	}
}

// usageText is a session's tokens and cost, as the status line and the
// summary at the end show them: "tokens 12.3k in (8.1k cached) / 1.2k out
// · $0.0345" (cached, when the prompt cache was read; the cost, when the
// model has a price).
func usageText(u llm.Usage) string {
	s := "tokens " + formatTokens(u.InputTokens) + " in"
	if u.CacheReadTokens > 0 {
		s += " (" + formatTokens(u.CacheReadTokens) + " cached)"
	}
	s += " / " + formatTokens(u.OutputTokens) + " out"
	if c := app.FormatCost(u); c != "" {
		s += " · " + c
	}
	return s
}

// statusText is the status line's text: model, tokens in and out, and
// extension health, with what is running (if anything) first.
func statusText(model string, u llm.Usage, health, activity string) string {
	parts := make([]string, 0, 4)
	if activity != "" {
		parts = append(parts, activity)
	}
	if model == "" {
		model = "no model"
	}
	parts = append(parts, model, usageText(u))
	if health != "" {
		parts = append(parts, health)
	}
	return strings.Join(parts, " · ")
}

// messageText joins the text blocks of an assistant message.
func messageText(m *llm.Message) (text, thinking string) {
	if m == nil {
		return "", ""
	}
	var t, th strings.Builder
	for _, b := range m.Content {
		switch b.Type {
		case llm.BlockText:
			t.WriteString(b.Text)
		case llm.BlockThinking:
			th.WriteString(b.Thinking)
		}
	}
	return t.String(), th.String()
}

func ansiStrip(s string) string { return ansi.Strip(s) }

// retryState is a retry the provider waits for.
type retryState struct {
	until time.Time
	why   string
	n, of int
}

// line is the one status line of a retry: "retrying in 4s (429 rate
// limited), 2/5", counting down as it is redrawn.
func (r *retryState) line(now time.Time) string {
	left := r.until.Sub(now)
	if left < 0 {
		left = 0
	}
	s := fmt.Sprintf("retrying in %ds", int((left+time.Second-1)/time.Second))
	if r.why != "" {
		s += " (" + r.why + ")"
	}
	if r.n > 0 && r.of > 0 {
		s += fmt.Sprintf(", %d/%d", r.n, r.of)
	}
	return s
}

// retryReason says briefly why a request is retried: "429 rate
// limited", "529 overloaded", or the first line of the error.
func retryReason(err error) string {
	if err == nil {
		return ""
	}
	if ae, ok := errors.AsType[*llm.APIError](err); ok && ae.Status != 0 {
		switch {
		case ae.Status == 429:
			return "429 rate limited"
		case ae.Status == 529 || strings.Contains(ae.Type, "overloaded"):
			return fmt.Sprintf("%d overloaded", ae.Status)
		case ae.Status >= 500:
			return fmt.Sprintf("%d server error", ae.Status)
		}
		return fmt.Sprint(ae.Status)
	}
	return oneLine(err.Error(), 60)
}
