package cli

import (
	"fmt"
	"io"
	"math"
	"strings"
	"sync"

	"github.com/synaps-cli/synaps/internal/agent"
	"github.com/synaps-cli/synaps/internal/plural"
	"github.com/synaps-cli/synaps/internal/tool"
)

// renderer prints agent events as plain lines: what `synaps chat`, `synaps
// demo` and progress on stderr in -p mode show. Colour only on a terminal
// without NO_COLOR.
type renderer struct {
	mu    sync.Mutex
	out   io.Writer
	color bool
	// fullErrors prints a failed call's output whole, not a preview of
	// three clipped lines: set when out is not a terminal (a log, a CI
	// job), where the error is read later and nothing else shows it.
	fullErrors bool
	midText    bool // the cursor is after streamed text, not at a line start
	// lastStart is the call whose start line was printed last and has not
	// ended: a call that ends after another started (read-only calls run
	// side by side) repeats its start line above its result.
	lastStart string
	// notices is where notices go when not out: chat keeps its stdout for
	// the conversation and says warnings (a guard's misspelt action, a
	// hung guard) on stderr, as -p does. nil: out.
	notices io.Writer
	// noticeColor: notices is a terminal that takes colour, decided
	// apart from out (chat 2>log on a terminal writes no escapes to the
	// log).
	noticeColor bool
}

func (r *renderer) style(code, s string) string {
	if !r.color {
		return s
	}
	return "\x1b[" + code + "m" + s + "\x1b[0m"
}

// endText closes a line of streamed text.
func (r *renderer) endText() {
	if r.midText {
		fmt.Fprintln(r.out)
		r.midText = false
	}
}

func (r *renderer) event(ev agent.Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if ev.Subagent != nil {
		r.kidEvent(ev)
		return
	}
	switch ev.Type {
	case agent.EventText:
		io.WriteString(r.out, agent.Printable(ev.Text))
		r.midText = !strings.HasSuffix(ev.Text, "\n")
	case agent.EventMessage:
		r.endText()
	case agent.EventRetry:
		r.endText()
		fmt.Fprintln(r.out, r.style("33", fmt.Sprintf("… retrying in %s: %v", ev.Delay, ev.Err)))
	case agent.EventInject:
		r.endText()
		where := "your message"
		if ev.Where == "system" {
			where = "the system prompt"
		}
		fmt.Fprintln(r.out, r.style("2", fmt.Sprintf("ℹ context added to %s by %s", where, ev.Text)))
	case agent.EventToolStart:
		r.endText()
		r.toolStart(ev.Tool)
		r.lastStart = ev.Tool.ID
	case agent.EventToolEnd:
		if ev.Tool.ID != r.lastStart {
			r.toolStart(ev.Tool)
		}
		r.lastStart = ""
		r.toolEnd(ev.Tool)
	case agent.EventNotice:
		r.endText()
		if r.notices == nil {
			fmt.Fprintln(r.out, r.style("33", "! "+ev.Text))
			break
		}
		text := "! " + ev.Text
		if r.noticeColor {
			text = "\x1b[33m" + text + "\x1b[0m"
		}
		fmt.Fprintln(r.notices, text)
	case agent.EventOutput:
		// A plugin command's output, as it streams.
		r.endText()
		switch ev.Stream {
		case "insert":
			// A sidecar's text; chat has no input line to put it in.
			fmt.Fprintln(r.out, r.style("2", "» "+ev.Text))
		case "error":
			fmt.Fprintln(r.out, r.style("31", "error: "+ev.Text))
		case "system", "task":
			fmt.Fprintln(r.out, r.style("2", ev.Text))
		default:
			fmt.Fprintln(r.out, ev.Text)
		}
	}
}

// kidEvent shows a subagent collapsed: a line when it starts, one per
// tool call it makes (indented, naming it), a line when it ends. Its
// text stays out: its answer is the agent call's result.
func (r *renderer) kidEvent(ev agent.Event) {
	sub := ev.Subagent
	switch ev.Type {
	case agent.EventSubagentStart:
		r.endText()
		what := ""
		if d := agent.Printable(ev.Text); strings.TrimSpace(d) != "" {
			what = ": " + d // the task's description, when the model gave one
		}
		fmt.Fprintf(r.out, "  %s\n", r.style("2", fmt.Sprintf("⎿ agent %s (%s) started%s", sub.Type, sub.ID, what)))
	case agent.EventToolEnd:
		c := ev.Tool
		mark := "⎿"
		if c.IsError {
			mark = "⎿ error:"
		}
		line := fmt.Sprintf("  ⎿ [%s] %s %s", sub.Type, c.Name, agent.InputSummary(c.Name, c.InputRequested, 80))
		if c.BlockedBy != "" || c.Refused || c.IsError {
			line += "  " + mark + " " + firstLine(agent.Printable(c.Output))
		}
		fmt.Fprintln(r.out, r.style("2", line))
	case agent.EventNotice:
		fmt.Fprintln(r.out, r.style("33", fmt.Sprintf("! agent %s: %s", sub.Type, ev.Text)))
	case agent.EventSubagentEnd:
		how := "done"
		if ev.Err != nil {
			how = "stopped: " + ev.Err.Error()
		}
		fmt.Fprintf(r.out, "  %s\n", r.style("2", fmt.Sprintf("⎿ agent %s (%s) %s · %s", sub.Type, sub.ID, how, plural.Count(ev.Usage.InputTokens+ev.Usage.OutputTokens, "token"))))
	}
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

func (r *renderer) toolStart(c *agent.ToolCall) {
	fmt.Fprintf(r.out, "%s %s %s\n", r.style("36", "●"), r.style("1", c.Name), agent.InputSummary(c.Name, c.InputRequested, 100))
}

func (r *renderer) toolEnd(c *agent.ToolCall) {
	for _, id := range c.ModifiedBy {
		fmt.Fprintf(r.out, "  %s\n", r.style("35", fmt.Sprintf("✎ input modified by %s: %s", id, agent.InputSummary(c.Name, c.Input, 90))))
	}
	if c.BlockedBy != "" || c.Refused {
		// Said in full: a refusal says which flag or rule allows the call.
		fmt.Fprintf(r.out, "  %s\n", r.style("31", "✗ "+agent.Printable(c.Output)))
		return
	}
	for _, id := range c.ReplacedBy {
		fmt.Fprintf(r.out, "  %s\n", r.style("35", "⇄ output replaced by "+id))
	}
	mark := "⎿"
	lines, width := 3, 110
	if c.IsError {
		mark = r.style("31", "⎿ error:")
		if r.fullErrors {
			lines, width = math.MaxInt, math.MaxInt
		}
	}
	for i, line := range agent.OutputPreview(c.Output, lines, width) {
		if i == 0 {
			fmt.Fprintf(r.out, "  %s %s\n", mark, line)
		} else {
			fmt.Fprintf(r.out, "    %s\n", line)
		}
	}
	if c.Diff != nil && !c.IsError {
		r.diff(c.Diff)
	}
	fmt.Fprintf(r.out, "    %s\n", r.style("2", fmt.Sprintf("(%s)", c.Duration.Round(1e6))))
}

// diff prints what a call changed in a file: a summary, then the first
// lines of the diff with their line numbers, removed lines marked - (red
// on a colour terminal), added + (green).
func (r *renderer) diff(d *tool.Diff) { r.diffN(d, agent.DiffPreviewLines) }

// diffN is diff showing up to n lines (a question shows the whole diff
// the user approves, as far as tool.MaxDiffLines).
func (r *renderer) diffN(d *tool.Diff, n int) {
	fmt.Fprintf(r.out, "    %s\n", r.style("2", agent.DiffSummary(d)))
	lines, more := agent.DiffPreview(d, n)
	for _, l := range lines {
		line := strings.TrimRight(fmt.Sprintf("%s %s %s", l.Number, l.Kind, l.Text), " ")
		switch l.Kind {
		case tool.DiffRemoved:
			line = r.style("31", line)
		case tool.DiffAdded:
			line = r.style("32", line)
		default:
			line = r.style("2", line)
		}
		fmt.Fprintf(r.out, "    %s\n", line)
	}
	if more > 0 {
		fmt.Fprintf(r.out, "    %s\n", r.style("2", "… "+plural.Count(more, "more diff line")))
	}
}
