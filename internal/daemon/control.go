package daemon

// The one-shot requests of a connection (status, sessions, stop, send):
// each is answered from the daemon's state under its lock, and the
// connection ends.

import (
	"fmt"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/synaps-cli/synaps/internal/session"
)

func (s *Server) status() *Status {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := &Status{PID: os.Getpid(), Started: s.started.UTC().Format(time.RFC3339), Socket: s.paths.Socket,
		Sessions: len(s.sessions), Clients: s.conns - 1}
	if s.idleExit > 0 {
		st.IdleExit = s.idleExit.String()
	}
	return st
}

// refreshIDs learns which session file each hosted UI writes, from the
// session locks (a UI may have started, resumed or compacted one since).
func (s *Server) refreshIDs() {
	owners := session.Owners(s.base)
	byPID := map[int]string{}
	for id, o := range owners {
		byPID[o.PID] = id
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, h := range s.sessions {
		if id, ok := byPID[h.cmd.Process.Pid]; ok {
			h.id = id
		}
	}
}

func (s *Server) list() []SessionInfo {
	s.refreshIDs()
	s.mu.Lock()
	defer s.mu.Unlock()
	out := []SessionInfo{}
	for _, h := range s.sessions {
		out = append(out, SessionInfo{ID: h.id, Handle: h.handle, PID: h.cmd.Process.Pid, Cwd: h.cwd,
			Started: h.started.UTC().Format(time.RFC3339), Busy: h.busy, Owner: h.owner != nil, Watch: len(h.observers)})
	}
	sort.Slice(out, func(i, j int) bool {
		return out[i].Started < out[j].Started || out[i].Started == out[j].Started && out[i].Handle < out[j].Handle
	})
	return out
}

// find looks a session up by session id, handle or a unique prefix of
// its id. Called with s.mu held.
func (s *Server) find(name string) (*hosted, error) {
	var hits []*hosted
	for _, h := range s.sessions {
		if h.id == name || h.handle == name {
			return h, nil
		}
		if name != "" && h.id != "" && strings.HasPrefix(h.id, name) {
			hits = append(hits, h)
		}
	}
	switch {
	case len(hits) == 1:
		return hits[0], nil
	case len(hits) > 1:
		return nil, fmt.Errorf("%q names %d sessions of the daemon; give more of the id (synaps daemon sessions)", name, len(hits))
	case name == "" && len(s.sessions) == 1:
		for _, h := range s.sessions {
			return h, nil
		}
	case name == "":
		return nil, fmt.Errorf("the daemon runs %d sessions; name one (synaps daemon sessions)", len(s.sessions))
	}
	return nil, fmt.Errorf("no session %q runs in the daemon (synaps daemon sessions lists them)", name)
}

// stopReq ends the named session, or with no name the daemon: then the
// answer is written before Serve is told to stop (stopAfter), or the
// daemon could exit before the client reads that it did.
func (s *Server) stopReq(name string) (answer *Frame, stopAfter bool) {
	if name == "" {
		s.logf("stop requested")
		return &Frame{Type: TypeOK}, true
	}
	s.refreshIDs()
	s.mu.Lock()
	h, err := s.find(name)
	s.mu.Unlock()
	if err != nil {
		return &Frame{Type: TypeError, Error: err.Error()}, false
	}
	s.end(h, "stopped by a client")
	return &Frame{Type: TypeOK}, false
}

// send gives text to a session's UI as if it was typed at its input: a
// new message when the session is idle, steering (or queued) while a
// turn runs, as the UI does with typed text.
func (s *Server) send(name, text string) *Frame {
	if strings.TrimSpace(text) == "" {
		return &Frame{Type: TypeError, Error: "nothing to send: give the text as the second argument"}
	}
	s.refreshIDs()
	s.mu.Lock()
	h, err := s.find(name)
	var id string
	if h != nil {
		id = h.id
	}
	s.mu.Unlock()
	if err != nil {
		return &Frame{Type: TypeError, Error: err.Error()}
	}
	if err := writeLink(h.link, linkMsg{Input: text}); err != nil {
		return &Frame{Type: TypeError, Error: fmt.Sprintf("session %s did not take the text: %v", name, err)}
	}
	return &Frame{Type: TypeOK, Session: id}
}
