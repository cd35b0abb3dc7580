package daemon

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/synaps-cli/synaps/internal/filelock"
)

// Paths are a base dir's daemon files, all in run/ (0700).
type Paths struct {
	Dir    string // run/
	Socket string // run/daemon.sock, 0600
	Lock   string // run/daemon.lock: flocked by the live daemon, holds its pid
	Log    string // run/daemon.log: the daemon's stderr
}

// PathsOf returns the daemon files of base.
func PathsOf(base string) Paths {
	dir := filepath.Join(base, "run")
	return Paths{Dir: dir, Socket: filepath.Join(dir, "daemon.sock"), Lock: filepath.Join(dir, "daemon.lock"),
		Log: filepath.Join(dir, "daemon.log")}
}

// maxSocketPath is the longest Unix socket path (sun_path, 108 bytes
// with its NUL on Linux).
const maxSocketPath = 107

// checkSocket refuses a socket path too long to listen on or dial, which
// a deep base dir makes: the error says how to shorten it.
func (p Paths) checkSocket() error {
	if len(p.Socket) > maxSocketPath {
		return fmt.Errorf("the daemon's socket path %s is %d bytes, more than a Unix socket allows (%d); set SYNAPS_BASE_DIR to a shorter directory", p.Socket, len(p.Socket), maxSocketPath)
	}
	return nil
}

// ensureDir makes run/ and makes sure only its owner can enter it: the
// socket's 0600 is the access control, and a directory others can write
// would let them replace it.
func (p Paths) ensureDir() error {
	if err := os.MkdirAll(p.Dir, 0o700); err != nil {
		return fmt.Errorf("cannot create the daemon directory %s: %w", p.Dir, err)
	}
	fi, err := os.Lstat(p.Dir)
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		return fmt.Errorf("%s is not a directory; remove it so the daemon can keep its socket there", p.Dir)
	}
	if fi.Mode().Perm() != 0o700 {
		if err := os.Chmod(p.Dir, 0o700); err != nil {
			return fmt.Errorf("%s is mode %o and cannot be made 0700: %w", p.Dir, fi.Mode().Perm(), err)
		}
	}
	return nil
}

// Running reports whether a daemon holds base's lock: alive, possibly
// still ending its sessions after it stopped listening.
func Running(base string) bool {
	f, err := os.Open(PathsOf(base).Lock)
	if err != nil {
		return false
	}
	defer f.Close()
	if filelock.TryRLock(f) != nil {
		return true
	}
	filelock.Unlock(f)
	return false
}
