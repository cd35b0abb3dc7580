package claude

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Prompt and agent hooks, as Claude Code 2.1.332 runs them: the hook's
// prompt, $ARGUMENTS replaced by the event's JSON, goes to a model (the
// small fast one, or the hook's "model"), which answers
// {"ok": true|false, "reason": "…"}. ok:false blocks as an exit 2 would,
// the reason in place of stderr, and — but on Stop and SubagentStop,
// where the block is what keeps the agent going — also ends the turn,
// unless the hook sets continueOnBlock. {"impossible": true} (the
// condition can never hold) lets the event go on. A model that fails or
// answers anything else is a non-blocking error.

// Asker asks a model one question: model is the hook's "model" ("" for
// the small fast model), system the instructions, prompt the question;
// the answer is the model's text. An agent hook's asker runs a subagent
// with read-only tools instead (agent true).
type Asker func(ctx context.Context, q Question) (string, error)

// Question is one prompt or agent hook's request.
type Question struct {
	Model  string
	System string
	Prompt string
	// Agent: an agent hook, which may read files to check (read-only
	// tools), not only the event's JSON.
	Agent bool
}

// verdict is the answer a prompt or agent hook's model gives.
type verdict struct {
	OK         *bool  `json:"ok"`
	Reason     string `json:"reason"`
	Impossible bool   `json:"impossible"`
}

// promptSystem is what the model is told, in synaps's words, for a stop
// condition (Stop, SubagentStop) or any other event.
func promptSystem(event string, agent bool) string {
	var b strings.Builder
	if event == "Stop" || event == "SubagentStop" {
		b.WriteString("You judge a stop condition of a coding agent's hook. The agent is about to end its turn; the user's text below says what must hold before it may. Judge from the event's JSON (its last_assistant_message is the agent's final answer)")
	} else {
		b.WriteString("You judge a coding agent's hook: the user's text below says what to check about an action, and you decide whether the action may go ahead. Judge from the event's JSON")
	}
	if agent {
		b.WriteString(" and from what you read with your tools (read-only); change nothing.")
	} else {
		b.WriteString(" only; you have no tools. When it is not enough to decide, answer ok false and say what you could not check.")
	}
	b.WriteString("\nAnswer with one JSON object and nothing else: {\"ok\": true, \"reason\": \"why it may go ahead\"} or {\"ok\": false, \"reason\": \"why not\"}. ")
	if event == "Stop" || event == "SubagentStop" {
		b.WriteString("If the condition can never be met, add \"impossible\": true. ")
	}
	b.WriteString("Always give a reason.")
	return b.String()
}

// promptText is the hook's prompt with $ARGUMENTS replaced by the
// payload; a prompt without the placeholder gets the payload after it,
// so the model always sees the event.
func promptText(prompt string, payload []byte) string {
	if strings.Contains(prompt, "$ARGUMENTS") {
		return strings.ReplaceAll(prompt, "$ARGUMENTS", string(payload))
	}
	return prompt + "\n\nThe event's JSON:\n" + string(payload)
}

// askHook runs a prompt or agent hook to its Outcome.
func (l *Link) askHook(ctx context.Context, e *Event, h Handler, payload []byte, timeout time.Duration) Outcome {
	if l.Ask == nil {
		return Outcome{Failed: fmt.Sprintf("a %s hook needs a model, and none is available here", h.Type)}
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	answer, err := l.Ask(ctx, Question{Model: h.Model, System: promptSystem(e.Name, h.Type == "agent"), Prompt: promptText(h.Prompt, payload), Agent: h.Type == "agent"})
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return Outcome{Failed: fmt.Sprintf("the %s hook ran past its timeout of %s", h.Type, timeout)}
	case err != nil:
		return Outcome{Failed: fmt.Sprintf("the %s hook's model failed: %v", h.Type, err)}
	}
	v, err := readVerdict(answer)
	if err != nil {
		return Outcome{Failed: fmt.Sprintf("the %s hook's model did not answer {\"ok\": …, \"reason\": …}: %v", h.Type, err)}
	}
	if *v.OK || v.Impossible {
		return Outcome{}
	}
	o := exit2(e, h.label(), v.Reason)
	if e.Name != "Stop" && e.Name != "SubagentStop" && !h.ContinueOnBlock {
		o.Stop, o.StopReason = true, v.Reason
	}
	return o
}

// readVerdict finds the JSON object in a model's answer (it may come in
// a code fence or after a sentence) and reads it.
func readVerdict(answer string) (verdict, error) {
	var v verdict
	start, end := strings.Index(answer, "{"), strings.LastIndex(answer, "}")
	if start < 0 || end < start {
		return v, fmt.Errorf("got %q", clip(answer, 200))
	}
	if err := json.Unmarshal([]byte(answer[start:end+1]), &v); err != nil {
		return v, fmt.Errorf("%v in %q", err, clip(answer, 200))
	}
	if v.OK == nil {
		return v, fmt.Errorf("no \"ok\" in %q", clip(answer, 200))
	}
	return v, nil
}

// clip cuts s to n characters, with … when it was longer.
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}
