package session

import (
	"slices"

	"github.com/synaps-cli/synaps/internal/llm"
)

// A deferred tool call: a headless run that a hook ended before a call
// (Claude Code's PreToolUse "defer") leaves the model's last message with
// that call unanswered, and a "deferred" record saying which calls wait
// and the results of the message's other calls, which ran. A resume
// (Open) keeps them waiting instead of answering them as interrupted;
// the next turn runs them (TakeDeferred) and sends all the results.

// TypeDeferred is the record of calls a hook deferred.
const TypeDeferred = "deferred"

// Deferred is what waits in a session a deferred call ended.
type Deferred struct {
	// Calls are the deferred tool calls, as the model made them.
	Calls []llm.Block
	// Results are the results of the message's other calls.
	Results []llm.Block
}

// Defer records that the calls ids of the last message wait, with the
// results of the others.
func (s *Session) Defer(ids []string, results []llm.Block) error {
	return s.append(Record{Type: TypeDeferred, Deferred: ids, Message: &llm.Message{Role: llm.RoleUser, Content: results}})
}

// TakeDeferred returns the calls a resumed session waits on, once; nil
// when it waits on none.
func (s *Session) TakeDeferred() *Deferred {
	s.mu.Lock()
	defer s.mu.Unlock()
	d := s.deferred
	s.deferred = nil
	return d
}

// deferredOf is what data's last deferred record left waiting: only when
// the conversation still ends with the message whose calls it names.
func deferredOf(data *Data) *Deferred {
	r := data.Deferred
	if r == nil || len(data.Messages) == 0 {
		return nil
	}
	last := data.Messages[len(data.Messages)-1]
	if last.Role != llm.RoleAssistant {
		return nil
	}
	d := &Deferred{}
	if r.Message != nil {
		d.Results = r.Message.Content
	}
	answered := map[string]bool{}
	for _, b := range d.Results {
		answered[b.ToolUseID] = true
	}
	for _, b := range last.Content {
		switch {
		case b.Type != llm.BlockToolUse || answered[b.ID]:
		case slices.Contains(r.Deferred, b.ID):
			d.Calls = append(d.Calls, b)
		default:
			return nil // a call neither run nor deferred: not this message's record
		}
	}
	if len(d.Calls) == 0 {
		return nil
	}
	return d
}
