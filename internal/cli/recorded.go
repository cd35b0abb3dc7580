package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/synaps-cli/synaps/internal/agent"
	"github.com/synaps-cli/synaps/internal/hook"
	"github.com/synaps-cli/synaps/internal/llm"
	"github.com/synaps-cli/synaps/internal/session"
)

// The tool calls a session recorded, for `synaps why` and `synaps
// replay`: the main loop's and every subagent's, each with its result
// and, when the session kept one, its call report. A session recorded
// before synaps kept reports still has the calls and their results; what
// was decided is then read from the result.

// recordedCall is one tool call of a session.
type recordedCall struct {
	ID, Tool string
	// Input is what the model asked for (before any modify).
	Input json.RawMessage
	// Sub is the subagent whose call it was; nil for the main loop.
	Sub *hook.Subagent
	// Result is the tool result's text; HasResult false when the session
	// ended before it.
	Result    string
	IsError   bool
	HasResult bool
	Report    *agent.CallReport
}

// openRecorded reads a session by id (or a session file's path) and
// lists its calls in the order they were made, the main loop's first.
func openRecorded(base, arg string) (id string, calls []recordedCall, err error) {
	path := arg
	if strings.HasSuffix(arg, ".jsonl") || strings.ContainsRune(arg, filepath.Separator) {
		if _, err := os.Stat(arg); err != nil {
			return "", nil, fmt.Errorf("session file %s: %v", arg, err)
		}
	} else {
		if err := session.CheckID(arg); err != nil {
			return "", nil, usageError{err}
		}
		if arg, err = session.Resolve(base, arg); err != nil {
			return "", nil, err
		}
		path = filepath.Join(session.Dir(base), arg+".jsonl")
	}
	d, err := session.Read(path)
	if err != nil {
		return "", nil, err
	}
	reports := map[string]*agent.CallReport{}
	for _, r := range d.Reports {
		var rep agent.CallReport
		if json.Unmarshal(r.Report, &rep) == nil {
			reports[r.Agent+"/"+r.ToolUseID] = &rep
		}
	}
	// A subagent's calls come right after the agent call that started
	// it, so the list is in the order the calls were made.
	children := map[string][]recordedCall{}
	var orphans []recordedCall
	main := callsOf(d.Messages, nil, reports)
	parents := map[string]bool{}
	for _, c := range main {
		parents[c.ID] = true
	}
	for _, sa := range d.Subagents {
		sub := &hook.Subagent{ID: sa.ID, Type: sa.Type, ParentToolUseID: sa.ParentToolUseID}
		cs := callsOf(sa.Messages, sub, reports)
		if parents[sa.ParentToolUseID] {
			children[sa.ParentToolUseID] = append(children[sa.ParentToolUseID], cs...)
		} else {
			orphans = append(orphans, cs...)
		}
	}
	for _, c := range main {
		calls = append(calls, c)
		calls = append(calls, children[c.ID]...)
	}
	return d.Header.ID, append(calls, orphans...), nil
}

// callsOf lists the tool calls of one conversation with their results.
func callsOf(msgs []llm.Message, sub *hook.Subagent, reports map[string]*agent.CallReport) []recordedCall {
	var calls []recordedCall
	at := map[string]int{}
	agentID := ""
	if sub != nil {
		agentID = sub.ID
	}
	for _, m := range msgs {
		for _, b := range m.Content {
			switch b.Type {
			case llm.BlockToolUse:
				at[b.ID] = len(calls)
				calls = append(calls, recordedCall{ID: b.ID, Tool: b.Name, Input: b.Input, Sub: sub, Report: reports[agentID+"/"+b.ID]})
			case llm.BlockToolResult:
				if i, ok := at[b.ToolUseID]; ok {
					calls[i].Result, calls[i].IsError, calls[i].HasResult = b.Content, b.IsError, true
				}
			}
		}
	}
	return calls
}

// was is what was decided about a recorded call: its report's verdict,
// else what its result says (a session recorded before reports).
func (c *recordedCall) was() outcome {
	if c.Report != nil {
		return outcome{Verdict: c.Report.Verdict, By: c.Report.By, Reason: hook.BlockReason(c.Report.Reason), Final: c.Report.Final, Recorded: true, noInputs: c.Report.InputsDropped}
	}
	if !c.HasResult || !c.IsError {
		return outcome{Verdict: agent.VerdictAllow}
	}
	text := c.Result
	switch {
	case strings.HasPrefix(text, "Tool call blocked by "):
		who, reason, _ := strings.Cut(strings.TrimPrefix(text, "Tool call blocked by "), ": ")
		return outcome{Verdict: agent.VerdictBlock, By: who, Reason: reason}
	case strings.Contains(text, " was not run: it needs permission"):
		return outcome{Verdict: agent.VerdictAsk, Reason: text}
	case strings.HasPrefix(text, "Permission to run "), strings.Contains(text, " was not run: synaps is in plan mode"),
		strings.HasPrefix(text, "not run: "), strings.HasPrefix(text, "unknown tool "):
		return outcome{Verdict: agent.VerdictBlock, Reason: text}
	case strings.HasPrefix(text, "The user declined to run "):
		return outcome{Verdict: agent.VerdictAsk, Reason: text}
	}
	// An error of the tool itself: it ran.
	return outcome{Verdict: agent.VerdictAllow}
}

// outcome is a verdict as replay compares it.
type outcome struct {
	Verdict string          `json:"verdict"`
	By      string          `json:"by,omitempty"`
	Reason  string          `json:"reason,omitempty"`
	Final   json.RawMessage `json:"final_input,omitempty"`
	// Recorded: read from the call's report, not inferred from its result.
	Recorded bool `json:"recorded"`
	// noInputs: the report was kept without its inputs (too large), so
	// its rewrite cannot be compared.
	noInputs bool
}

func outcomeOf(r *agent.CallReport) outcome {
	return outcome{Verdict: r.Verdict, By: r.By, Reason: hook.BlockReason(r.Reason), Final: r.Final, Recorded: true}
}

// describe says an outcome in a few words: "allowed", "blocked by
// ext:policy-guard/before_tool_call: no rm -rf".
func (o outcome) describe() string {
	switch o.Verdict {
	case agent.VerdictBlock:
		s := "blocked"
		if o.By != "" {
			s += " by " + o.By
		}
		if o.Reason != "" {
			s += ": " + o.Reason
		}
		return s
	case agent.VerdictAsk:
		if o.By != "" {
			return "asked (" + o.By + ")"
		}
		return "asked"
	}
	return "allowed"
}
