package session

import (
	"fmt"
	"strings"

	"github.com/synaps-cli/synaps/internal/llm"
)

// ResultLost is the result recorded in memory for a tool call whose result
// was on a damaged line of the session file.
const ResultLost = "no result: the session file line that held this tool call's result was damaged and skipped; the call may or may not have taken effect"

// repair makes the messages read from a session file into a conversation
// the model APIs accept, when damaged lines were skipped from its middle.
// A skipped line can leave a tool result whose tool call is gone (the
// APIs reject the whole request for it), a tool call with no result, or
// two messages of one role in a row. repair drops orphan results, answers
// calls that lost their results, and marks every gap but a cut-short
// line with a note in a user message, so the model knows part of the
// conversation is missing.
// The file itself is never rewritten: it is append-only, and the same
// repair is made on every read.
//
// A tool call still unanswered at the very end is left alone: Open
// answers it in the file, as for a session stopped while tools ran.
func repair(msgs []llm.Message, damaged []Damage) ([]llm.Message, []string) {
	gaps := map[int][]int{}
	for _, d := range damaged {
		// A line cut short is where a crash stopped the session; the
		// resumed turn follows it, and an interrupted tool call says so
		// itself, so it is not marked. Any other damage is.
		if d.before < len(msgs) && d.Reason != reasonCut {
			gaps[d.before] = append(gaps[d.before], d.Line)
		}
	}
	var (
		out     []llm.Message
		repairs []string
		pending []string // unanswered tool calls of the last message in out
		lines   []int    // damaged lines not yet marked in the conversation
	)
	marked := func() {
		if len(lines) > 0 {
			repairs = append(repairs, fmt.Sprintf("%s marked in the conversation as missing", lineList(lines)))
		}
		lines = nil
	}
	for i, m := range msgs {
		lines = append(lines, gaps[i]...)
		if len(m.Content) == 0 {
			// An empty answer (a model that said nothing) carries
			// nothing, and the APIs refuse an empty message.
			continue
		}
		m.Content = append([]llm.Block(nil), m.Content...)
		switch m.Role {
		case llm.RoleUser:
			var results, rest []llm.Block
			answered := map[string]bool{}
			for _, b := range m.Content {
				if b.Type != llm.BlockToolResult {
					rest = append(rest, b)
					continue
				}
				if contains(pending, b.ToolUseID) && !answered[b.ToolUseID] {
					answered[b.ToolUseID] = true
					results = append(results, b)
					continue
				}
				repairs = append(repairs, fmt.Sprintf("dropped the result of tool call %s: the call it answers is not in the file", b.ToolUseID))
			}
			for _, id := range pending {
				if !answered[id] {
					results = append(results, lostResult(id))
					repairs = append(repairs, fmt.Sprintf("tool call %s had no result; it is answered as lost", id))
				}
			}
			if len(lines) > 0 {
				rest = append([]llm.Block{gapNote(lines)}, rest...)
				marked()
			}
			pending = nil
			// Tool results come first in a user message (Anthropic
			// requires it).
			m.Content = append(results, rest...)
			if len(m.Content) == 0 {
				continue
			}
			out = append(out, m)
		case llm.RoleAssistant:
			switch {
			case len(pending) > 0:
				// The user message with the results is gone.
				content := lostResults(pending)
				for _, id := range pending {
					repairs = append(repairs, fmt.Sprintf("tool call %s had no result; it is answered as lost", id))
				}
				content = append(content, gapNote(lines))
				out = append(out, llm.Message{Role: llm.RoleUser, Content: content})
				marked()
			case len(out) == 0 || out[len(out)-1].Role == llm.RoleAssistant:
				// A user message is gone (before the first answer, or
				// between two answers).
				out = append(out, llm.Message{Role: llm.RoleUser, Content: []llm.Block{gapNote(lines)}})
				if len(lines) == 0 {
					repairs = append(repairs, "a user message is missing before an answer; marked in the conversation")
				}
				marked()
			case len(lines) > 0:
				last := &out[len(out)-1]
				last.Content = append(append([]llm.Block(nil), last.Content...), gapNote(lines))
				marked()
			}
			pending = nil
			for _, b := range m.Content {
				if b.Type == llm.BlockToolUse && !contains(pending, b.ID) {
					pending = append(pending, b.ID)
				}
			}
			out = append(out, m)
		default:
			repairs = append(repairs, fmt.Sprintf("dropped a message with the unknown role %q", m.Role))
		}
	}
	return out, repairs
}

// gapNote is the text that stands where damaged lines were skipped.
func gapNote(lines []int) llm.Block {
	what := "part of this conversation"
	if len(lines) > 0 {
		what = "part of this conversation (" + lineList(lines) + " of its session file, damaged)"
	}
	return llm.Block{Type: llm.BlockText, Text: "[synaps: " + what + " could not be read and is missing here; earlier messages may refer to things you cannot see]"}
}

func lineList(lines []int) string {
	s := make([]string, len(lines))
	for i, n := range lines {
		s[i] = fmt.Sprint(n)
	}
	if len(lines) == 1 {
		return "line " + s[0]
	}
	return "lines " + strings.Join(s, ", ")
}

func lostResult(id string) llm.Block {
	return llm.Block{Type: llm.BlockToolResult, ToolUseID: id, Content: ResultLost, IsError: true}
}

func lostResults(ids []string) []llm.Block {
	out := make([]llm.Block, len(ids))
	for i, id := range ids {
		out[i] = lostResult(id)
	}
	return out
}

func contains(ids []string, id string) bool {
	for _, x := range ids {
		if x == id {
			return true
		}
	}
	return false
}
