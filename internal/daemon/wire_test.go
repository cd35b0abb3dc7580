//go:build !windows

package daemon

import (
	"io"
	"net"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/synaps-cli/synaps/internal/jsonrpc"
)

// Bad input from a client gets an error frame saying what was wrong (or,
// when it cannot even be framed, a closed connection), never a crash; the
// daemon serves the next client.
func TestBadRequests(t *testing.T) {
	base, _ := startServer(t, Options{IdleExit: -1})
	hello := `{"type":"hello","version":1}`
	cases := []struct {
		name   string
		frames []string // bodies, each framed; "RAW:" sends the rest unframed
		want   string   // in the last error frame; "" when the daemon just closes
	}{
		{"no hello", []string{`{"type":"status"}`}, "this daemon speaks protocol 1 and wants a hello first; got status version 0"},
		{"another version", []string{`{"type":"hello","version":7}`}, "got hello version 7"},
		{"not JSON", []string{`{"type":`}, "daemon wire: a frame that is not a JSON object of the daemon's wire (unexpected end of JSON input)"},
		{"no type", []string{hello, `{"session":"x"}`}, `daemon wire: a frame without a "type"`},
		{"unknown request", []string{hello, `{"type":"dance"}`}, `unknown request "dance"`},
		// Noise before a frame is skipped (the frame reader's tolerance).
		{"noise before a frame", []string{"RAW:hello daemon\r\n\r\n", hello, `{"type":"sessions"}`}, ""},
		{"a frame too large", []string{"RAW:Content-Length: 999999999\r\n\r\n"}, ""},
		{"new with a relative exe", []string{hello, `{"type":"new","exe":"synaps","cwd":"/"}`}, `new session: the synaps executable "synaps" is not an absolute path`},
		{"new in no directory", []string{hello, `{"type":"new","exe":"/bin/sh","cwd":"/no/such/dir"}`}, `new session: the working directory "/no/such/dir" is not a directory`},
		{"new with no program", []string{hello, `{"type":"new","exe":"/no/such/synaps","cwd":"/"}`}, "new session: cannot start /no/such/synaps"},
		{"attach in no mode", []string{hello, `{"type":"attach","mode":"boss"}`}, `attach mode "boss": use owner, observe or takeover`},
		{"attach to nothing", []string{hello, `{"type":"attach","session":"nosuch"}`}, `no session "nosuch" runs in the daemon (synaps daemon sessions lists them)`},
		{"send nothing", []string{hello, `{"type":"send","session":"x","text":" "}`}, "nothing to send: give the text as the second argument"},
		{"stop no session", []string{hello, `{"type":"stop","session":"nosuch"}`}, `no session "nosuch" runs in the daemon`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			nc, err := net.Dial("unix", PathsOf(base).Socket)
			if err != nil {
				t.Fatal(err)
			}
			defer nc.Close()
			for _, body := range tc.frames {
				if raw, ok := strings.CutPrefix(body, "RAW:"); ok {
					io.WriteString(nc, raw)
					continue
				}
				jsonrpc.WriteFrame(nc, []byte(body))
			}
			nc.SetReadDeadline(time.Now().Add(30 * time.Second))
			c := newConn(nc)
			var last *Frame
			for {
				f, err := c.read()
				if err != nil {
					break
				}
				last = f
			}
			switch {
			case tc.want == "" && last != nil && last.Type == TypeError:
				t.Errorf("got the error %q, want the connection closed", last.Error)
			case tc.want != "" && (last == nil || last.Type != TypeError || !strings.Contains(last.Error, tc.want)):
				t.Errorf("got %+v, want an error with %q", last, tc.want)
			}
			// The daemon still serves.
			cl, err := Dial(base)
			if err != nil {
				t.Fatalf("after %s: %v", tc.name, err)
			}
			if st, err := cl.Status(); err != nil || st.PID != os.Getpid() {
				t.Fatalf("after %s: status %+v, %v", tc.name, st, err)
			}
		})
	}
}
