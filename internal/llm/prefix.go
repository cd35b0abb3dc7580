package llm

import (
	"bytes"
	"sort"
)

// Prefix keeps a conversation in one provider's wire encoding, so that
// each message is encoded once, not once per request. The stateless model
// APIs need the whole history in every request; a saved message never
// changes, so its bytes are kept and a request is the kept prefix plus
// what is new. That makes a turn cost what the turn adds, not what the
// session holds, and it makes the prefix byte-stable from request to
// request, which is what prompt caching needs.
//
// One conversation (an agent) owns a Prefix and passes it in every
// Request; a provider that encodes requests uses it, and one that does not
// (the script model, extension providers) ignores it. It is not safe for
// concurrent use: the requests of one conversation are sequential.
//
// A Prefix trusts that the messages it has encoded are still the first
// ones of the next request: a conversation is append-only. It checks the
// last encoded message (the same content, by identity) and starts over
// when that fails or the wire format changes; the owner calls Reset when
// history is rewritten (compaction, a hook that changes it) or the model
// changes.
type Prefix struct {
	// format is the wire format (and options) buf is in; "" before the
	// first request.
	format string
	// chunks hold the encodings of the first len(ends) messages, each
	// followed by a comma, one after the other (so that bytes [0,
	// ends[i]-1) of their concatenation are messages 0..i as JSON array
	// elements, and an empty encoding adds nothing). A message is never
	// split between chunks; starts[k] is where chunks[k] begins in the
	// concatenation.
	//
	// Chunks, not one growing slice: a long session's encoding is
	// megabytes, and growing one slice copies all of it into fresh memory
	// every quarter of its size (append's growth): the copy, the page
	// faults of the new memory and a pause that the garbage collector
	// must wait out (a long copy is not preemptible) came back at every
	// growth, each larger than the last. A chunk that is full is never
	// touched again; the request sends the chunks in parts.
	chunks [][]byte
	starts []int
	ends   []int
	// scratch is where a message is encoded before it is kept.
	scratch []byte
	// last identifies the last encoded message: its content's first block
	// and length.
	last    *Block
	lastLen int

	// Mark is 1 + the index of the message that carried the moving cache
	// breakpoint in the previous request (Anthropic); 0 for none. The
	// provider that sets breakpoints keeps it.
	Mark int

	// tools and toolsEnc: the tool definitions last encoded, and their
	// encoding; a provider re-encodes only when they change.
	tools    []ToolDef
	toolsEnc []byte
	// system and systemEnc likewise for the system prompt.
	system    string
	systemEnc []byte
}

// Reset forgets every encoding: the next request encodes the whole
// conversation again.
func (p *Prefix) Reset() {
	*p = Prefix{ends: p.ends[:0], scratch: p.scratch}
}

// prefixChunk is the size of a chunk after the first (which grows by
// append up to it): large enough that a request of megabytes is a few
// dozen parts, small enough that the last chunk's unused room is little
// beside the session's own memory.
const prefixChunk = 256 << 10

// keep appends b to the last chunk, or to a new one when it does not fit:
// a chunk grows by append only while it is under prefixChunk (the first
// chunk of a session), so bytes in a chunk of that size never move.
func (p *Prefix) keep(b []byte) {
	k := len(p.chunks) - 1
	if k < 0 || len(p.chunks[k])+len(b) > max(cap(p.chunks[k]), prefixChunk) {
		var c []byte
		if k >= 0 { // a long session: a whole chunk at once
			c = make([]byte, 0, max(prefixChunk, len(b)))
		}
		p.starts = append(p.starts, p.size())
		p.chunks = append(p.chunks, c)
		k++
	}
	p.chunks[k] = append(p.chunks[k], b...)
}

// size is the length of the chunks' concatenation.
func (p *Prefix) size() int {
	if len(p.chunks) == 0 {
		return 0
	}
	k := len(p.chunks) - 1
	return p.starts[k] + len(p.chunks[k])
}

// Len is the number of messages encoded.
func (p *Prefix) Len() int { return len(p.ends) }

// Encode makes sure the first n messages of msgs are encoded in format,
// encoding with enc (which appends the encoding of m to dst, or nothing
// for a message that has none) only those that were not before. Span
// then returns them.
func (p *Prefix) Encode(format string, msgs []Message, n int, enc func(dst []byte, m *Message) []byte) {
	if p.format != format || len(p.ends) > n || !p.same(msgs) {
		p.Reset()
		p.format = format
	}
	for i := len(p.ends); i < n; i++ {
		p.scratch = enc(p.scratch[:0], &msgs[i])
		if len(p.scratch) > 0 {
			p.scratch = append(p.scratch, ',')
			p.keep(p.scratch)
		}
		p.ends = append(p.ends, p.size())
	}
	if n > 0 {
		p.last, p.lastLen = first(msgs[n-1].Content), len(msgs[n-1].Content)
	}
}

// Span is the encoding of messages [from, to) as JSON array elements
// joined by commas (no trailing comma), in parts to be sent one after the
// other (the kept bytes themselves, not a copy); none when they encode
// to nothing. They must have been encoded.
func (p *Prefix) Span(from, to int) [][]byte {
	if from >= to {
		return nil
	}
	start, end := 0, p.ends[to-1]
	if from > 0 {
		start = p.ends[from-1]
	}
	if end == start {
		return nil
	}
	end-- // the last one's comma
	chunk := func(at int) int { return sort.Search(len(p.starts), func(k int) bool { return p.starts[k] > at }) - 1 }
	k, last := chunk(start), chunk(max(end-1, start))
	parts := make([][]byte, 0, last-k+1)
	for ; k <= last; k++ {
		c := p.chunks[k]
		lo, hi := max(start-p.starts[k], 0), min(end-p.starts[k], len(c))
		if lo < hi {
			parts = append(parts, c[lo:hi])
		}
	}
	return parts
}

// same reports whether msgs still starts with the messages encoded.
func (p *Prefix) same(msgs []Message) bool {
	n := len(p.ends)
	if n == 0 {
		return true
	}
	if n > len(msgs) {
		return false
	}
	m := &msgs[n-1]
	return first(m.Content) == p.last && len(m.Content) == p.lastLen
}

func first(bs []Block) *Block {
	if len(bs) == 0 {
		return nil
	}
	return &bs[0]
}

// Tools returns the encoding of tools that enc makes, from the last call
// when the definitions are the same.
func (p *Prefix) Tools(tools []ToolDef, enc func([]ToolDef) []byte) []byte {
	if p.toolsEnc != nil && sameTools(p.tools, tools) {
		return p.toolsEnc
	}
	p.tools = append(p.tools[:0], tools...)
	p.toolsEnc = enc(tools)
	return p.toolsEnc
}

// System is Tools for the system prompt.
func (p *Prefix) System(system string, enc func(string) []byte) []byte {
	if p.systemEnc != nil && p.system == system {
		return p.systemEnc
	}
	p.system, p.systemEnc = system, enc(system)
	return p.systemEnc
}

func sameTools(a, b []ToolDef) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Name != b[i].Name || a[i].Description != b[i].Description || !bytes.Equal(a[i].InputSchema, b[i].InputSchema) {
			return false
		}
	}
	return true
}
