package session

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/synaps-cli/synaps/internal/llm"
)

// holder is the helper process of the lock tests: it opens the session
// BASE:ID, says "held" and keeps it open until its stdin closes.
func holder(arg string) {
	base, id, _ := strings.Cut(arg, ":")
	s, err := Open(base, id)
	if err != nil {
		fmt.Println("error:", err)
		os.Exit(1)
	}
	fmt.Println("held")
	bufio.NewReader(os.Stdin).ReadString('\n')
	s.Close()
}

// savedSession makes a session with one message on disk and closes it.
func savedSession(t *testing.T, base string) string {
	t.Helper()
	s, err := Create(base, "m", "/w")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Append(text(llm.RoleUser, "hello")); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	return s.ID
}

// startHolder runs the helper holding base's session id in another
// process; closing its stdin makes it Close the session and exit. It is
// killed when the test ends.
func startHolder(t *testing.T, base, id string) (*exec.Cmd, io.Closer) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "SESSION_HOLDER="+base+":"+id)
	stdin, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stdin.Close(); cmd.Process.Kill(); cmd.Wait() })
	line, _ := bufio.NewReader(out).ReadString('\n')
	if strings.TrimSpace(line) != "held" {
		t.Fatalf("the holder did not take the session: %q", line)
	}
	return cmd, stdin
}

// A second writer is refused, naming the owner; the owner ending (Close,
// or kill -9, whose lock the kernel drops) lets the next writer in.
func TestSessionLock(t *testing.T) {
	cases := []struct {
		name string
		// hold returns how to end the holder; nil ends nothing.
		run func(t *testing.T, base, id string) (refusal string, end func())
	}{
		{"same process", func(t *testing.T, base, id string) (string, func()) {
			s, err := Open(base, id)
			if err != nil {
				t.Fatal(err)
			}
			return "session " + id + " is already open in this synaps", func() { s.Close() }
		}},
		{"other process, closed", func(t *testing.T, base, id string) (string, func()) {
			c, stdin := startHolder(t, base, id)
			return fmt.Sprintf("session %s is in use by pid %d (%s -test.run=^$)", id, c.Process.Pid, filepath.Base(os.Args[0])),
				func() {
					stdin.Close()
					if err := c.Wait(); err != nil {
						t.Errorf("the holder: %v", err)
					}
				}
		}},
		{"other process, kill -9", func(t *testing.T, base, id string) (string, func()) {
			c, _ := startHolder(t, base, id)
			return fmt.Sprintf("session %s is in use by pid %d", id, c.Process.Pid),
				func() { c.Process.Signal(syscall.SIGKILL); c.Wait() }
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			base := t.TempDir()
			id := savedSession(t, base)
			want, end := tc.run(t, base, id)

			_, err := Open(base, id)
			var le *LockedError
			if !errors.As(err, &le) {
				t.Fatalf("a second Open: got %v, want a LockedError", err)
			}
			if !strings.HasPrefix(err.Error(), want) {
				t.Errorf("refusal:\n got %s\nwant it to start with %s", err, want)
			}
			if owner, held := Locked(base, id); !held || owner.PID != le.Owner.PID {
				t.Errorf("Locked = %+v, %v; want held by %d", owner, held, le.Owner.PID)
			}

			end()
			if got := Owners(base); len(got) != 0 {
				t.Errorf("Owners after the owner ended = %+v, want none", got)
			}
			if _, err := os.Stat(lockPath(base, id)); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("the lock file nobody holds is left after Owners: %v", err)
			}
			s, err := Open(base, id)
			if err != nil {
				t.Fatalf("after the owner ended: %v", err)
			}
			if got := Owners(base); !cmp.Equal(mapKeys(got), []string{id}) || got[id].PID != os.Getpid() {
				t.Errorf("Owners = %+v, want %s held by this process", got, id)
			}
			if diff := cmp.Diff([]llm.Message{text(llm.RoleUser, "hello")}, s.Messages()); diff != "" {
				t.Errorf("messages after taking over (-want +got):\n%s", diff)
			}
			s.Close()
			if _, err := os.Stat(lockPath(base, id)); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("the lock file is left after Close: %v", err)
			}
			if _, held := Locked(base, id); held {
				t.Error("Locked says held after Close")
			}
		})
	}
}

// A new session is locked before its file exists, so the daemon can tell
// which session its child writes; a launch that sends nothing leaves
// neither a session file nor a lock.
func TestCreateLocksAndCloseLeavesNothing(t *testing.T) {
	base := t.TempDir()
	s, err := Create(base, "m", "/w")
	if err != nil {
		t.Fatal(err)
	}
	if o, held := Locked(base, s.ID); !held || o.PID != os.Getpid() || o.Command == "" {
		t.Errorf("Locked(new session) = %+v, %v; want held by this process with its command", o, held)
	}
	s.Close()
	left, _ := filepath.Glob(filepath.Join(Dir(base), "*", "*"))
	files, _ := filepath.Glob(filepath.Join(Dir(base), "*.jsonl"))
	if len(left)+len(files) != 0 {
		t.Errorf("left behind: %v %v", left, files)
	}
}

func mapKeys(m map[string]Owner) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
