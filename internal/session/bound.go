package session

import (
	"encoding/json"
	"fmt"

	"github.com/synaps-cli/synaps/internal/llm"
	"github.com/synaps-cli/synaps/internal/plural"
	"github.com/synaps-cli/synaps/internal/tool"
)

// MaxRecord is the most bytes one line of a session file holds. Append
// keeps every record within it, and Read skips (with a warning naming the
// line) a longer one instead of reading it: one huge turn must never make
// a whole session unreadable, nor cost its size in memory on every resume
// and listing.
const MaxRecord = 8 << 20

// bound returns m with every tool result cut to the cap the model gets
// (tool.DefaultMaxOutput, head and tail, as the built-ins cut their own
// output). The model is sent what is saved, so a resumed session is the
// session it was. It costs a length check per block.
func bound(m llm.Message) llm.Message {
	copied := false
	for i, b := range m.Content {
		if b.Type == llm.BlockToolResult && len(b.Content) > tool.DefaultMaxOutput+tool.OutputNoteSlack {
			if !copied {
				m.Content = append([]llm.Block(nil), m.Content...)
				copied = true
			}
			m.Content[i].Content = tool.CapOutput(b.Content, tool.DefaultMaxOutput)
		}
	}
	return m
}

// fit cuts a message whose record is longer than MaxRecord until it fits,
// largest block first. Append calls it only for such a message, so a
// normal one is marshalled once.
func fit(m llm.Message) llm.Message {
	m.Content = append([]llm.Block(nil), m.Content...)
	// Room for the record's own fields (role, type, time).
	const budget = MaxRecord - 4<<10
	sizes, total := blockSizes(m.Content)
	for total > budget {
		big := 0
		for i := range sizes {
			if sizes[i] > sizes[big] {
				big = i
			}
		}
		switch {
		case shrink(&m.Content[big], sizes[big]-(total-budget)):
			b, _ := json.Marshal(&m.Content[big])
			total += len(b) - sizes[big]
			sizes[big] = len(b)
		case m.Content[big].Type == llm.BlockText, m.Content[big].Type == llm.BlockThinking, m.Content[big].Type == llm.BlockRedactedThinking,
			m.Content[big].Type == llm.BlockImage:
			// Nothing left to cut in the largest block, and the
			// conversation stays valid without it: drop it.
			total -= sizes[big]
			m.Content = append(m.Content[:big], m.Content[big+1:]...)
			sizes = append(sizes[:big], sizes[big+1:]...)
		default:
			// Tens of thousands of tiny tool calls: nothing can be cut
			// without breaking the conversation. Read skips the record
			// with a warning.
			return m
		}
	}
	return m
}

// blockSizes is the marshalled size of each block and of them all.
func blockSizes(blocks []llm.Block) ([]int, int) {
	sizes := make([]int, len(blocks))
	total := 0
	for i := range blocks {
		b, _ := json.Marshal(&blocks[i])
		sizes[i] = len(b)
		total += len(b)
	}
	return sizes, total
}

// shrink cuts b towards target marshalled bytes; it reports whether it
// could cut anything. Text is cut head and tail with a note. A tool input
// cannot be cut without breaking its JSON, so it is replaced by a note.
func shrink(b *llm.Block, target int) bool {
	keep := max(target/2, 1<<10) // JSON escapes can double a string
	cut := func(s *string) bool {
		switch {
		case len(*s) > keep+tool.OutputNoteSlack:
			*s = tool.CapOutput(*s, keep)
		case len(*s) > 256:
			*s = fmt.Sprintf("[synaps: %d bytes here were too large to save in the session]", len(*s))
		default:
			return false
		}
		return true
	}
	switch b.Type {
	case llm.BlockText:
		return cut(&b.Text)
	case llm.BlockToolResult:
		if len(b.Images) > 0 {
			// Pictures cannot be cut; the text says they were there.
			b.Content += fmt.Sprintf("\n[synaps: %s of this result %s too large to save in the session]", plural.Count(len(b.Images), "image"), plural.Pick(len(b.Images), "was", "were"))
			b.Images = nil
			return true
		}
		return cut(&b.Content)
	case llm.BlockToolUse:
		if len(b.Input) <= 256 {
			return false
		}
		note, _ := json.Marshal(map[string]string{"synaps_note": fmt.Sprintf("this input of %d bytes was too large to save in the session", len(b.Input))})
		b.Input = note
		return true
	}
	// A thinking block cannot be cut without breaking its signature.
	return false
}
