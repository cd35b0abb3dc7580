package session

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/synaps-cli/synaps/internal/filelock"
)

// Session locks: a session file has one writer. Two processes appending
// to one JSONL file would interleave two conversations into one that no
// model API accepts, so the process that writes a session holds its lock
// from Create or Open to Close, and a second Open is refused with an
// error naming the owner (pid and command line).
//
// The lock is flock(2) on sessions/locks/<id>.lock, not the lock file's
// existence: the kernel drops a flock when its holder dies, kill -9
// included, so a lock left by a crashed synaps is stale by construction
// and the next Open takes it over without guessing from pids. The file
// holds who owns it (Owner), for the refusal and for the daemon, which
// finds the session its child writes by pid (Owners).

// Owner says which process holds a session's lock.
type Owner struct {
	PID     int    `json:"pid"`
	Command string `json:"command"`
	Since   string `json:"since"`
}

// LockedError is Open's refusal of a session another process writes.
type LockedError struct {
	ID    string
	Owner Owner // zero when the owner could not be read
}

func (e *LockedError) Error() string {
	if e.Owner.PID == os.Getpid() {
		return fmt.Sprintf("session %s is already open in this synaps", e.ID)
	}
	who := "another process"
	if e.Owner.PID > 0 {
		who = fmt.Sprintf("pid %d", e.Owner.PID)
		if e.Owner.Command != "" {
			who += fmt.Sprintf(" (%s)", e.Owner.Command)
		}
	}
	return fmt.Sprintf("session %s is in use by %s: one process writes a session at a time; attach to it (synaps attach %s) if a daemon runs it, or end that process first",
		e.ID, who, e.ID)
}

// LockDir is where a base dir's session locks are.
func LockDir(baseDir string) string { return filepath.Join(Dir(baseDir), "locks") }

func lockPath(baseDir, id string) string { return filepath.Join(LockDir(baseDir), id+".lock") }

// lock is a held session lock.
type lock struct {
	f    *os.File
	path string
}

// acquire takes the lock of session id, or returns a *LockedError naming
// its owner. The lock file is close-on-exec (os.OpenFile), so the tools
// and extensions synaps starts never hold it.
func acquire(baseDir, id string) (*lock, error) {
	if err := os.MkdirAll(LockDir(baseDir), 0o700); err != nil {
		return nil, fmt.Errorf("cannot create the session locks directory: %w", err)
	}
	path := lockPath(baseDir, id)
	for range 8 {
		f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o600)
		if err != nil {
			return nil, fmt.Errorf("cannot open the lock of session %s: %w", id, err)
		}
		err = flock(f)
		if err != nil {
			f.Close()
			if errors.Is(err, filelock.ErrLocked) {
				owner, _ := readOwner(path)
				return nil, &LockedError{ID: id, Owner: owner}
			}
			return nil, fmt.Errorf("cannot lock session %s (%s): %w", id, path, err)
		}
		// The previous holder may have removed the file (release) between
		// our open and our flock: then we hold a lock on a name nobody
		// else can see. Only the file still at path counts.
		if same(f, path) {
			if err := writeOwner(f); err != nil {
				f.Close()
				return nil, fmt.Errorf("cannot write the lock of session %s: %w", id, err)
			}
			return &lock{f: f, path: path}, nil
		}
		f.Close()
	}
	return nil, fmt.Errorf("cannot lock session %s: its lock file %s keeps changing", id, path)
}

// flock takes f's exclusive lock without waiting for a holder, but it
// tries again briefly: Locked's probe holds a shared lock for an instant.
func flock(f *os.File) error {
	var err error
	for i := range 3 {
		if err = filelock.TryLock(f); !errors.Is(err, filelock.ErrLocked) {
			return err
		}
		time.Sleep(time.Duration(i+1) * 5 * time.Millisecond)
	}
	return err
}

func same(f *os.File, path string) bool {
	a, err := f.Stat()
	if err != nil {
		return false
	}
	b, err := os.Stat(path)
	return err == nil && os.SameFile(a, b)
}

func writeOwner(f *os.File) error {
	b, err := json.Marshal(Owner{PID: os.Getpid(), Command: command(), Since: time.Now().UTC().Format(time.RFC3339)})
	if err != nil {
		return err
	}
	if err := f.Truncate(0); err != nil {
		return err
	}
	_, err = f.WriteAt(append(b, '\n'), 0)
	return err
}

// command is this process's command line, cut short, for the refusal.
func command() string {
	s := strings.Join(append([]string{filepath.Base(os.Args[0])}, os.Args[1:]...), " ")
	return oneLine(s, 120)
}

func readOwner(path string) (Owner, error) {
	var o Owner
	b, err := os.ReadFile(path)
	if err != nil {
		return o, err
	}
	err = json.Unmarshal(b, &o)
	return o, err
}

// release removes the lock file, then drops the lock: removing first
// means a waiting Open that opened the old file sees it is gone (same)
// and retries on a fresh one.
func (l *lock) release() {
	if l == nil || l.f == nil {
		return
	}
	os.Remove(l.path)
	l.f.Close()
	l.f = nil
}

// Locked reports who holds the lock of session id: ok is false when
// nobody does (no lock file, or one a dead process left).
func Locked(baseDir, id string) (Owner, bool) {
	path := lockPath(baseDir, id)
	f, err := os.Open(path)
	if err != nil {
		return Owner{}, false
	}
	defer f.Close()
	// A shared lock succeeds only when no writer holds it; drop it at once.
	if filelock.TryRLock(f) == nil {
		filelock.Unlock(f)
		return Owner{}, false
	}
	o, _ := readOwner(path)
	return o, true
}

// Owners lists the sessions whose locks are held, by session id. A lock
// file nobody holds (its process was killed) is removed on the way, so
// killed launches do not pile up in locks/.
func Owners(baseDir string) map[string]Owner {
	entries, err := os.ReadDir(LockDir(baseDir))
	if errors.Is(err, fs.ErrNotExist) || err != nil {
		return nil
	}
	out := map[string]Owner{}
	for _, e := range entries {
		id, ok := strings.CutSuffix(e.Name(), ".lock")
		if !ok {
			continue
		}
		if o, held := Locked(baseDir, id); held {
			out[id] = o
		} else {
			removeStale(baseDir, id)
		}
	}
	return out
}

// removeStale removes the lock file of id if nobody holds it. It holds a
// shared lock while it removes, so no writer holds the file then; one
// that opened it meanwhile finds it gone once it has the lock (acquire's
// same) and takes a fresh one.
func removeStale(baseDir, id string) {
	path := lockPath(baseDir, id)
	f, err := os.Open(path)
	if err != nil {
		return
	}
	defer f.Close()
	if filelock.TryRLock(f) != nil {
		return
	}
	if same(f, path) {
		os.Remove(path)
	}
	filelock.Unlock(f)
}
