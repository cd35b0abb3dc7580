package daemon

// The replay: what a session keeps of its output, so that a client that
// attaches later (or one that fell behind) gets the screen as it is.

// ReplayLimit bounds what a session keeps of its output for clients that
// attach later; older output is dropped from the front.
const ReplayLimit = 4 << 20

// sendReplay queues what a client that attaches (or resyncs) gets: the
// prelude when the replay no longer starts with it, then the replay's
// tail. Called with s.mu held.
func (s *Server) sendReplay(cl *client, h *hosted) {
	tail := replayTail(h.replay)
	if len(tail) < len(h.replay) || len(h.replay) >= ReplayLimit || h.trimmed {
		h.trimmed = true
		s.queue(cl, &Frame{Type: TypeOutput, Data: h.prelude[:len(h.prelude):len(h.prelude)]})
	}
	for b := tail; len(b) > 0; {
		n := min(len(b), chunk)
		s.queue(cl, &Frame{Type: TypeOutput, Data: b[:n:n]})
		b = b[n:]
	}
}

// appendReplay appends data to the replay. It is trimmed to its last
// ReplayLimit bytes only when it has grown to twice that, so a session
// that prints a lot copies each byte a bounded number of times
// (trimming at every append copied 4 MiB per chunk).
func appendReplay(replay, data []byte) []byte {
	replay = append(replay, data...)
	if len(replay) >= 2*ReplayLimit {
		replay = append(make([]byte, 0, 2*ReplayLimit), replayTail(replay)...)
	}
	return replay
}

// replayTail is what a client that attaches gets: the replay's last
// ReplayLimit bytes, from a line start when one is near, so the replay
// starts cleanly.
func replayTail(replay []byte) []byte {
	over := len(replay) - ReplayLimit
	if over <= 0 {
		return replay
	}
	cut := over
	if replay[over-1] == '\n' {
		return replay[cut:]
	}
	if i := indexByteFrom(replay, '\n', over); i >= 0 && i-over < 64<<10 {
		cut = i + 1
	}
	return replay[cut:]
}

func indexByteFrom(b []byte, c byte, from int) int {
	for i := from; i < len(b); i++ {
		if b[i] == c {
			return i
		}
	}
	return -1
}
