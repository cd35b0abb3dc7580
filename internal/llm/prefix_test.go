package llm

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func textMsg(s string) Message {
	return Message{Role: RoleUser, Content: []Block{{Type: BlockText, Text: s}}}
}

// counting encodes a message as its text in quotes and counts the calls.
type counting struct{ calls int }

func (c *counting) enc(dst []byte, m *Message) []byte {
	c.calls++
	if m.Text() == "" {
		return dst // a message with no encoding
	}
	return fmt.Appendf(dst, "%q", m.Text())
}

func TestPrefixEncodesEachMessageOnce(t *testing.T) {
	msgs := []Message{textMsg("a"), textMsg(""), textMsg("b")}
	var p Prefix
	var c counting
	p.Encode("f", msgs, 3, c.enc)
	msgs = append(msgs, textMsg("c"))
	p.Encode("f", msgs, 4, c.enc)
	if c.calls != 4 {
		t.Errorf("%d encodings for 4 messages over two requests; want 4", c.calls)
	}
	tests := []struct {
		from, to int
		want     string
	}{
		{0, 4, `"a","b","c"`},
		{0, 1, `"a"`},
		{1, 2, ``},
		{1, 3, `"b"`},
		{2, 4, `"b","c"`},
		{3, 3, ``},
	}
	for _, tt := range tests {
		if got := string(p.Span(tt.from, tt.to)); got != tt.want {
			t.Errorf("Span(%d, %d) = %s; want %s", tt.from, tt.to, got, tt.want)
		}
	}
}

// What makes a Prefix start over: another wire format, a conversation
// that is not the one encoded (its last encoded message is another), a
// shorter one, or Reset.
func TestPrefixStartsOver(t *testing.T) {
	tests := []struct {
		name   string
		second func(msgs []Message) (format string, next []Message)
		calls  int // encodings in the second request
	}{
		{"same conversation, one more", func(m []Message) (string, []Message) { return "f", append(m, textMsg("z")) }, 1},
		{"another format", func(m []Message) (string, []Message) { return "g", m }, 2},
		{"another conversation", func(m []Message) (string, []Message) {
			return "f", []Message{textMsg("x"), textMsg("y")}
		}, 2},
		{"a rewritten last message", func(m []Message) (string, []Message) {
			c := append([]Message(nil), m...)
			c[1] = textMsg("B")
			return "f", c
		}, 2},
		{"a shorter one", func(m []Message) (string, []Message) { return "f", m[:1] }, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			msgs := []Message{textMsg("a"), textMsg("b")}
			var p Prefix
			var c counting
			p.Encode("f", msgs, 2, c.enc)
			format, next := tt.second(msgs)
			c.calls = 0
			p.Encode(format, next, len(next), c.enc)
			if c.calls != tt.calls {
				t.Errorf("%d encodings; want %d", c.calls, tt.calls)
			}
			var want []byte
			for i := range next {
				if i > 0 {
					want = append(want, ',')
				}
				want = fmt.Appendf(want, "%q", next[i].Text())
			}
			if d := cmp.Diff(string(want), string(p.Span(0, len(next)))); d != "" {
				t.Errorf("encoding (-want +got):\n%s", d)
			}
		})
	}
	var p Prefix
	var c counting
	msgs := []Message{textMsg("a")}
	p.Encode("f", msgs, 1, c.enc)
	p.Reset()
	p.Encode("f", msgs, 1, c.enc)
	if c.calls != 2 {
		t.Errorf("after Reset: %d encodings in all; want 2", c.calls)
	}
}
