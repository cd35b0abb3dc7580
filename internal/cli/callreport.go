package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/synaps-cli/synaps/internal/agent"
	"github.com/synaps-cli/synaps/internal/hook"
	"github.com/synaps-cli/synaps/internal/linediff"
)

// Printing a per-call report (agent.CallReport) for people: `synaps hooks
// test`, `synaps why` and `synaps replay` show the same breakdown — each
// link in chain order with its answer, reason, rewrite (a diff of the
// input) and time, then the permission rule or mode and the verdict.

// writeCallReport prints r to w.
func writeCallReport(w io.Writer, r *agent.CallReport) {
	who := r.Tool
	if r.Agent != "" {
		who += " (subagent " + r.Agent + ")"
	}
	fmt.Fprintf(w, "%s %s\n", who, compactJSON(r.Input))
	width := 0
	for _, l := range r.Links {
		width = max(width, len(l.ID))
	}
	for i, l := range r.Links {
		fmt.Fprintf(w, "  %d. %-*s  %s", i+1, width, l.ID, linkSays(l))
		if l.DurationNS > 0 {
			fmt.Fprintf(w, "  (%s)", time.Duration(l.DurationNS).Round(10*time.Microsecond))
		}
		fmt.Fprintln(w)
		if l.Rewrite != nil {
			before := l.Input
			if before == nil {
				before = r.Input // the session keeps a link's input only where it is not the call's
			}
			for _, line := range inputDiff(before, l.Rewrite) {
				fmt.Fprintf(w, "       %s\n", line)
			}
		}
	}
	if len(r.Links) == 0 {
		fmt.Fprintln(w, "  (no hook, rule or mode judged this call)")
	}
	if r.Mode != "" {
		fmt.Fprintf(w, "permission mode: %s", r.Mode)
		if r.Rule != "" {
			fmt.Fprintf(w, ", rule applied: %s", r.Rule)
		}
		fmt.Fprintln(w)
	}
	if r.Final != nil && !bytes.Equal(r.Final, r.Input) {
		fmt.Fprintf(w, "input that runs: %s\n", compactJSON(r.Final))
	}
	if r.InputsDropped {
		fmt.Fprintln(w, "(the session kept this report without its inputs and rewrites: they were too large)")
	}
	fmt.Fprintf(w, "verdict: %s\n", verdictLine(r))
}

// linkSays is one link's line: its answer and reason, or why it did not
// judge.
func linkSays(l hook.LinkReport) string {
	switch l.State {
	case hook.StateNotMatched:
		return "not matched"
	case hook.StateNotAsked:
		return "not asked (the chain had ended)"
	case hook.StateFailed:
		s := "could not judge: " + l.Fault
		if l.Action != "" {
			s += " → " + l.Action
		}
		return s
	}
	s := l.Action
	if l.Reason != "" {
		s += ": " + l.Reason
	}
	return s
}

// verdictLine is the verdict with who decided and why.
func verdictLine(r *agent.CallReport) string {
	switch r.Verdict {
	case agent.VerdictBlock:
		return fmt.Sprintf("blocked by %s: %s", r.By, hook.BlockReason(r.Reason))
	case agent.VerdictAsk:
		s := "would ask (" + r.By + ")"
		switch r.Asked {
		case "yes":
			s = "asked (" + r.By + "): the user said yes"
		case "no":
			s = "asked (" + r.By + "): the user said no"
		case "nobody":
			s = "needed asking (" + r.By + "), and there was nobody to ask: refused"
		}
		return s
	}
	if r.By != "" {
		return "allowed (" + r.By + ")"
	}
	return "allowed"
}

// inputDiff is a rewrite as a diff of the input: before and after, one
// key a line.
func inputDiff(before, after json.RawMessage) []string {
	a, b := prettyLines(before), prettyLines(after)
	script, ok := linediff.Lines(a, b, 200)
	if !ok {
		return []string{"- " + compactJSON(before), "+ " + compactJSON(after)}
	}
	var out []string
	for _, e := range script {
		switch e.Op {
		case linediff.Delete:
			out = append(out, "- "+a[e.A])
		case linediff.Insert:
			out = append(out, "+ "+b[e.B])
		default:
			out = append(out, "  "+a[e.A])
		}
	}
	return out
}

func prettyLines(raw json.RawMessage) []string {
	var buf bytes.Buffer
	if json.Indent(&buf, raw, "", "  ") != nil {
		return []string{string(raw)}
	}
	return strings.Split(buf.String(), "\n")
}

func compactJSON(raw json.RawMessage) string {
	var buf bytes.Buffer
	if json.Compact(&buf, raw) != nil {
		return string(raw)
	}
	return buf.String()
}

// verdictExit is the exit code of a verdict: 0 allow, 1 block, 3 would
// ask.
func verdictExit(r *agent.CallReport) int {
	switch r.Verdict {
	case agent.VerdictBlock:
		return 1
	case agent.VerdictAsk:
		return 3
	}
	return 0
}
