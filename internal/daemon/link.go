package daemon

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
)

// The link is the side channel between the daemon and a session's UI: a
// Unix socket pair whose UI end is fd 3, named by $SYNAPS_DAEMON_LINK.
// JSON lines both ways: the UI says {"event":"busy"} when work starts,
// {"event":"idle"} when it ends, {"event":"detach"} when its user quits;
// the daemon sends {"input":"text"} for `synaps send`.

// LinkEnv names the link's file descriptor in a session UI's environment;
// a synaps that has it runs inside the daemon.
const LinkEnv = "SYNAPS_DAEMON_LINK"

const (
	linkBusy   = "busy"
	linkIdle   = "idle"
	linkDetach = "detach"
)

type linkMsg struct {
	Event string `json:"event,omitempty"`
	Input string `json:"input,omitempty"`
}

func withoutLink(env []string) []string {
	out := make([]string, 0, len(env)+1)
	for _, kv := range env {
		if !strings.HasPrefix(kv, LinkEnv+"=") {
			out = append(out, kv)
		}
	}
	return out
}

var linkWriteMu sync.Mutex

func writeLink(f *os.File, m linkMsg) error {
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	linkWriteMu.Lock()
	defer linkWriteMu.Unlock()
	_, err = f.Write(append(b, '\n'))
	return err
}

// readLinkMsgs calls fn for each message until the link closes; a line
// that is not a message is skipped.
func readLinkMsgs(f *os.File, fn func(linkMsg)) {
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), maxFrame)
	for sc.Scan() {
		var m linkMsg
		if json.Unmarshal(sc.Bytes(), &m) == nil {
			fn(m)
		}
	}
}

// Link is a session UI's end of its link to the daemon.
type Link struct {
	f *os.File
}

// OpenLink returns the link of a synaps running inside the daemon, or
// nil (and no error) when this synaps is not: getenv has no LinkEnv.
func OpenLink(getenv func(string) string) (*Link, error) {
	v := getenv(LinkEnv)
	if v == "" {
		return nil, nil
	}
	// Neither the variable nor the descriptor goes to what this synaps
	// starts: a synaps run by a tool is not in the daemon.
	os.Unsetenv(LinkEnv)
	fd, err := strconv.Atoi(v)
	var f *os.File
	if err == nil && fd >= 3 {
		f = linkFile(fd)
	}
	if f == nil {
		return nil, fmt.Errorf("$%s = %q is not the daemon's link (an open socket, fd 3 or more); it is set by the daemon for the sessions it starts: unset it", LinkEnv, v)
	}
	return &Link{f: f}, nil
}

// Busy tells the daemon whether a turn (or any work) runs, so idle exit
// waits for it.
func (l *Link) Busy(busy bool) {
	ev := linkIdle
	if busy {
		ev = linkBusy
	}
	_ = writeLink(l.f, linkMsg{Event: ev})
}

// Detach asks the daemon to let the input's owner go: the user quit, the
// session goes on.
func (l *Link) Detach() { _ = writeLink(l.f, linkMsg{Event: linkDetach}) }

// Inputs calls fn with each text `synaps send` sends, until the link
// closes (the daemon ended).
func (l *Link) Inputs(fn func(text string)) {
	readLinkMsgs(l.f, func(m linkMsg) {
		if m.Input != "" {
			fn(m.Input)
		}
	})
}
