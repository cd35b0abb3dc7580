package transport

import (
	"bytes"
	"context"
	"io"
	"net"
	"strconv"
)

// A long conversation's request is megabytes, in parts (Post). net/http
// sends a body of known length by flushing the request's head in one
// write, then copying the body through io.Copy's 32 KiB buffer: a copy
// of every byte in user space, and a write system call per 32 KiB (its
// connection write buffer is bypassed for a body that is not a
// bytes.Reader). gatherConn, under each plain-TCP connection of the
// default client, sends the head and every part of the body in one
// gathered write (writev) instead: no copy, and as few system calls as
// the socket's buffer allows. A TLS connection's records go through it
// unchanged.

// gatherConn is a client connection that holds back a request's head
// until its body comes, and writes a partsReader body gathered.
type gatherConn struct {
	net.Conn
	held []byte // the head of a request whose body comes next
}

// dialGather dials as net/http's default transport does, under a
// gatherConn.
func dialGather(dial func(ctx context.Context, network, addr string) (net.Conn, error)) func(ctx context.Context, network, addr string) (net.Conn, error) {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := dial(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		return &gatherConn{Conn: c}, nil
	}
}

// Write holds a request head that announces a body (net/http writes the
// body right after it; a head that waits for "100 Continue" is not
// held), and writes anything else, after what is held, at once. Only
// net/http's one writing goroutine per connection calls Write and
// ReadFrom, so held needs no lock.
func (c *gatherConn) Write(p []byte) (int, error) {
	if len(c.held) == 0 && headWithBody(p) {
		c.held = append(c.held[:0], p...) // p is the caller's buffer
		return len(p), nil
	}
	if len(c.held) == 0 {
		return c.Conn.Write(p)
	}
	n, err := c.writeAll(net.Buffers{p})
	return int(n), err
}

// ReadFrom writes a partsReader body (as net/http hands it over: limited
// to the request's Content-Length) in one gathered write with the held
// head; any other reader is copied as the connection would.
func (c *gatherConn) ReadFrom(r io.Reader) (int64, error) {
	if lr, ok := r.(*io.LimitedReader); ok {
		if pr, ok := lr.R.(*partsReader); ok {
			n, err := c.writeAll(pr.rest(lr.N))
			pr.advance(n)
			lr.N -= n
			return n, err
		}
	}
	if err := c.flush(); err != nil {
		return 0, err
	}
	return io.Copy(c.Conn, r)
}

// writeAll writes what is held, then bufs, in one gathered write, and
// returns how much of bufs was written.
func (c *gatherConn) writeAll(bufs net.Buffers) (int64, error) {
	held := int64(len(c.held))
	all := append(net.Buffers{c.held}, bufs...)
	n, err := all.WriteTo(c.Conn)
	c.held = c.held[:0]
	return max(n-held, 0), err
}

// flush writes what is held.
func (c *gatherConn) flush() error {
	if len(c.held) == 0 {
		return nil
	}
	_, err := c.writeAll(nil)
	return err
}

// headWithBody reports whether p is a whole HTTP/1.1 request head, as
// net/http writes it, that announces a body of known length and does not
// wait for "100 Continue" before sending it.
func headWithBody(p []byte) bool {
	end := bytes.Index(p, []byte("\r\n\r\n"))
	if end < 0 || end+4 != len(p) {
		return false
	}
	line, _, _ := bytes.Cut(p, []byte("\r\n"))
	method, _, _ := bytes.Cut(line, []byte(" "))
	if len(method) == 0 || bytes.ContainsFunc(method, func(r rune) bool { return r < 'A' || r > 'Z' }) || !bytes.HasSuffix(line, []byte(" HTTP/1.1")) {
		return false
	}
	head := p[:end+2]
	if bytes.Contains(head, []byte("\r\nExpect:")) {
		return false
	}
	_, rest, ok := bytes.Cut(head, []byte("\r\nContent-Length: "))
	if !ok {
		return false
	}
	v, _, _ := bytes.Cut(rest, []byte("\r\n"))
	n, err := strconv.ParseInt(string(v), 10, 64)
	return err == nil && n > 0
}
