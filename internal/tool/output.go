package tool

import (
	"fmt"
	"unicode/utf8"
)

// DefaultMaxOutput is the most bytes of one tool result the model gets,
// whatever the tool: built-ins cut their own output to it, and the agent
// cuts every other tool's output (extensions, MCP) to it before any
// after_tool_call hook sees it. Every result is re-sent with each later
// request of the session, so an unbounded one costs on every turn.
const DefaultMaxOutput = 30000

// OutputNoteSlack is how far past the cap a result may go for the notes a
// tool appends when it cuts its own output ("…[N bytes truncated]…", an
// exit status, a timeout). A result within it is not cut again, so a
// built-in's own notes survive.
const OutputNoteSlack = 1 << 10

// CapOutput bounds a tool result to max bytes (plus OutputNoteSlack). A
// longer one keeps its first and last max/2 bytes, as bash does, with a
// note of how much was dropped between them; the cut never splits a UTF-8
// sequence. max <= 0 means DefaultMaxOutput.
func CapOutput(s string, max int) string {
	if max <= 0 {
		max = DefaultMaxOutput
	}
	if len(s) <= max+OutputNoteSlack {
		return s
	}
	h := max / 2
	for h > 0 && !utf8.RuneStart(s[h]) {
		h--
	}
	t := len(s) - (max - max/2)
	for t < len(s) && !utf8.RuneStart(s[t]) {
		t++
	}
	return fmt.Sprintf("%s\n…[%d bytes truncated]…\n%s", s[:h], t-h, s[t:])
}
