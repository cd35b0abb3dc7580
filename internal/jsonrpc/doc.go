// Package jsonrpc is the runtime's side of the extension transport:
// JSON-RPC 2.0 messages in Content-Length frames over a child's stdio.
//
// # Design
//
// The package is a tolerant reader and a strict writer. Extensions are
// written by many hands, in many languages, and print to stdout by
// accident; the reader (frame.go) therefore accepts every framing variant
// seen in the wild — case-insensitive and extra headers, bare "\n" line
// ends, stray bytes before a header, unusable header blocks — and reports
// each through a callback instead of failing. Only a Content-Length above
// the limit is fatal, because skipping it would mean reading (and a naive
// reader allocating) the body. The writer always emits exactly
// "Content-Length: N\r\n\r\n" and one JSON object, in one Write, because
// the authoring guide's reader splits on that literal text.
//
// A Conn (conn.go) runs one read loop goroutine that decodes each frame and
// routes it: responses to the waiting Call, notifications to OnNotify (in
// order, on the loop), requests to a Handler in a goroutine of their own so
// that a slow handler never stops responses from being read. Everything that
// changes after NewConn — the id counter, the pending-call table, the
// closing and ended flags — lives in one struct behind one mutex; a
// one-slot semaphore only serialises frames on the writer. When the read loop ends, for
// any reason, every pending call fails at once: a crashed extension costs
// its callers nothing beyond the crash. A Call also honours its deadline
// against a hung extension that no longer reads its stdin: waiting for the
// writer gives up with ctx, and a Write already blocked on a full pipe is
// interrupted through the pipe's write deadline (if half a frame went out,
// the stream is corrupt and the Conn is closed).
//
// The hot path is a hook round trip, so it avoids allocation where that is
// cheap: frames are encoded into pooled buffers with room reserved for the
// header, valid json.RawMessage params are copied without reflection, reply
// channels are recycled, and bodies up to 64 KiB are decoded straight out
// of the read buffer.
package jsonrpc
