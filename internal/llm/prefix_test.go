package llm

import (
	"bytes"
	"fmt"
	"strings"
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
		if got := string(bytes.Join(p.Span(tt.from, tt.to), nil)); got != tt.want {
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
			if d := cmp.Diff(string(want), string(bytes.Join(p.Span(0, len(next)), nil))); d != "" {
				t.Errorf("encoding (-want +got):\n%s", d)
			}
		})
	}
	var p Prefix
	var c counting
	p.Encode("f", []Message{textMsg("")}, 1, c.enc)
	if got := p.Span(0, 1); got != nil {
		t.Errorf("a message that encodes to nothing spans %q", got)
	}
	p.Reset()
	c.calls = 0
	msgs := []Message{textMsg("a")}
	p.Encode("f", msgs, 1, c.enc)
	p.Reset()
	p.Encode("f", msgs, 1, c.enc)
	if c.calls != 2 {
		t.Errorf("after Reset: %d encodings in all; want 2", c.calls)
	}
}

// A long session's encoding is kept in chunks: every span is still the
// messages' encodings joined by commas, across chunk boundaries, and the
// bytes once kept never move (a full chunk is not copied again as the
// session grows; the old single slice was, at every growth).
func TestPrefixChunks(t *testing.T) {
	var msgs []Message
	var p Prefix
	var c counting
	enc := func(i int) string { return fmt.Sprintf("%q", msgs[i].Text()) }
	for i := range 400 { // ≈ 2 KB each: more than three chunks
		text := fmt.Sprintf("%04d %s", i, strings.Repeat("x", 2000))
		if i%7 == 3 {
			text = "" // encodes to nothing
		}
		msgs = append(msgs, textMsg(text))
	}
	p.Encode("f", msgs, 150, c.enc) // the first chunk is full
	first := p.Span(0, 100)[0]
	for n := 151; n <= len(msgs); n++ { // one request per message, as a session
		p.Encode("f", msgs, n, c.enc)
	}
	if len(p.chunks) < 3 {
		t.Fatalf("%d chunks for %d KB; want at least 3", len(p.chunks), p.size()>>10)
	}
	if got := p.Span(0, 100)[0]; &got[0] != &first[0] {
		t.Errorf("the first messages' bytes moved as the session grew")
	}
	for _, r := range [][2]int{{0, 400}, {0, 1}, {3, 4}, {2, 5}, {120, 140}, {99, 301}, {127, 128}, {250, 400}, {399, 400}} {
		var want []string
		for i := r[0]; i < r[1]; i++ {
			if msgs[i].Text() != "" {
				want = append(want, enc(i))
			}
		}
		got := p.Span(r[0], r[1])
		if d := cmp.Diff(strings.Join(want, ","), string(bytes.Join(got, nil))); d != "" {
			t.Errorf("Span(%d, %d) (-want +got):\n%s", r[0], r[1], d)
		}
		for _, part := range got {
			if len(part) == 0 {
				t.Errorf("Span(%d, %d) has an empty part", r[0], r[1])
			}
		}
	}
}
