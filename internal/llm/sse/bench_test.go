package sse

import (
	"fmt"
	"io"
	"strings"
	"testing"
)

// benchStream is 200 events shaped like an Anthropic text stream: named
// events, one JSON data line each, pings in between.
func benchStream() string {
	var b strings.Builder
	for i := range 200 {
		if i%20 == 0 {
			b.WriteString("event: ping\ndata: {\"type\": \"ping\"}\n\n")
			continue
		}
		fmt.Fprintf(&b, "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"word %d \"}}\n\n", i)
	}
	return b.String()
}

func BenchmarkSSEReader(b *testing.B) {
	for _, bc := range []struct {
		name string
		r    func(string) io.Reader
	}{
		{"whole", func(s string) io.Reader { return strings.NewReader(s) }},
		{"chunks-of-7", func(s string) io.Reader { return &chunkReader{s: s, n: 7} }},
	} {
		b.Run(bc.name, func(b *testing.B) {
			data := benchStream()
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				r := NewReader(bc.r(data))
				n := 0
				for {
					if _, err := r.Next(); err != nil {
						break
					}
					n++
				}
				if n != 200 {
					b.Fatalf("%d events", n)
				}
			}
		})
	}
}

// chunkReader returns at most n bytes per Read, like a network stream
// flushed in small writes.
type chunkReader struct {
	s string
	n int
}

func (c *chunkReader) Read(p []byte) (int, error) {
	if c.s == "" {
		return 0, io.EOF
	}
	k := copy(p[:min(len(p), c.n)], c.s)
	c.s = c.s[k:]
	return k, nil
}
