package sandbox

import (
	"encoding/json"
	"path/filepath"
	"sync"
	"time"

	"golang.org/x/sys/unix"
)

// prepared is a policy's confinement made ready once and reused by every
// spawn while what it was built from is unchanged: the plan (which paths
// are mounted read-only, which kernel features apply) and, for the fast
// path, the Landlock rules (grants). Working them out resolves dozens of
// paths and lists the directories around the credential stores: most of
// what confinement itself cost per spawn. A session's bash commands all
// run under one policy, and so pay it once. No file stays open for it:
// a thread confined by it builds its ruleset from the grants (an open per
// rule) and closes it once restricted.
type prepared struct {
	spec spec
	// grants are the Landlock rules for the fast path (nil when only the
	// helper may apply the spec, which works them out itself).
	grants []grant
	stamps []stamp
	// cached: the cache keeps it (a racy one serves one spawn only).
	cached bool
	// sp is the thread that forks its commands on the fast path.
	sp spawner
}

// stamp is what a path was when the policy was prepared: the file it
// resolves to (none when it did not exist) and, for a directory whose
// entries were listed to enumerate grants, when its entries last changed.
// A path that resolves elsewhere, appears or disappears, or a listed
// directory that gained or lost an entry, makes the preparation stale.
type stamp struct {
	path         string
	exists       bool
	dev, ino     uint64
	listed       bool
	mtime, ctime unix.Timespec
}

// racyWindow: a directory whose entries changed this shortly before it
// was listed may change again within the same tick of the filesystem's
// clock, unseen by its times; such a listing is used once, not kept (as
// git treats a racily clean index).
const racyWindow = time.Second

// maxPrepared bounds the cache: a session has a handful of policies (its
// bash, a plugin's); more means policies that keep changing.
const maxPrepared = 32

var preparedCache = struct {
	sync.Mutex
	m map[string]*prepared
}{}

// prepare returns p's confinement on this kernel, from the cache when it is
// still fresh; nil when there is nothing to apply. Errors are plan's (a
// refusal under sandbox.required) and are not kept.
func prepare(p Policy) (*prepared, error) {
	key, kerr := json.Marshal(p)
	if kerr == nil {
		preparedCache.Lock()
		pr := preparedCache.m[string(key)]
		preparedCache.Unlock()
		if pr != nil && pr.fresh() {
			return pr, nil
		}
		if pr != nil {
			preparedCache.Lock()
			if preparedCache.m[string(key)] == pr {
				delete(preparedCache.m, string(key))
			}
			preparedCache.Unlock()
			pr.retire() // stale: its thread ends after its commands
		}
	}
	started := time.Now()
	// The paths are stamped before they are read: a change after this
	// shows at the next spawn.
	stamps := pathStamps(policyPaths(p))
	s, err := plan(p)
	if err != nil || s == nil {
		return nil, err
	}
	pr := &prepared{spec: *s}
	if s.Landlock && fastEligible(*s) {
		grants := s.grants()
		for i := range grants {
			var st unix.Stat_t
			switch {
			case unix.Stat(grants[i].path, &st) != nil:
				grants[i].kind = kindMissing
			case st.Mode&unix.S_IFMT == unix.S_IFDIR:
				grants[i].kind = kindDir
			default:
				grants[i].kind = kindFile
			}
		}
		pr.grants = grants
		listed, ok := listedStamps(grants, started)
		if !ok {
			return pr, nil // a listing may be racy: used for this spawn only
		}
		stamps = append(coveredDropped(stamps, listed), listed...)
	}
	pr.stamps = stamps
	if kerr == nil {
		pr.cached = true
		var gone []*prepared
		preparedCache.Lock()
		if old := preparedCache.m[string(key)]; old != nil {
			gone = append(gone, old)
		}
		if preparedCache.m == nil || len(preparedCache.m) >= maxPrepared {
			for _, o := range preparedCache.m {
				gone = append(gone, o)
			}
			preparedCache.m = map[string]*prepared{}
		}
		preparedCache.m[string(key)] = pr
		preparedCache.Unlock()
		for _, o := range gone {
			o.retire() // its thread ends after its commands
		}
	}
	return pr, nil
}

// coveredDropped leaves out the stamps of paths a listed directory
// holds directly, unless they are symbolic links: a file there replaced,
// created or removed changes the directory's times, which its own stamp
// checks. It keeps the check of a fresh preparation to a few calls.
func coveredDropped(stamps, listed []stamp) []stamp {
	dirs := make(map[string]bool, len(listed))
	for _, l := range listed {
		dirs[l.path] = true
	}
	out := stamps[:0]
	for _, st := range stamps {
		var lst unix.Stat_t
		link := unix.Lstat(st.path, &lst) == nil && lst.Mode&unix.S_IFMT == unix.S_IFLNK
		if link || !dirs[filepath.Dir(st.path)] {
			out = append(out, st)
		}
	}
	return out
}

// fresh reports whether every stamped path is still what it was.
func (pr *prepared) fresh() bool {
	for _, st := range pr.stamps {
		now := statStamp(st.path)
		if now.exists != st.exists || now.dev != st.dev || now.ino != st.ino {
			return false
		}
		if st.listed && (now.mtime != st.mtime || now.ctime != st.ctime) {
			return false
		}
	}
	return true
}

// policyPaths are the paths a policy names, as written: where each
// resolves decides the rules and the read-only mounts.
func policyPaths(p Policy) []string {
	var out []string
	for _, list := range [][]string{p.Read, p.Write, p.Hidden, p.Reveal, p.ReadOnly} {
		out = append(out, list...)
	}
	return out
}

func pathStamps(paths []string) []stamp {
	seen := make(map[string]bool, len(paths))
	out := make([]stamp, 0, len(paths))
	for _, p := range paths {
		if !seen[p] {
			seen[p] = true
			out = append(out, statStamp(p))
		}
	}
	return out
}

// listedStamps stamps the directories grants listed (those granted the
// list right alone: the ancestors of hidden paths, whose other entries
// were enumerated). ok is false when one changed too close to started
// for its times to tell a later change.
func listedStamps(grants []grant, started time.Time) (out []stamp, ok bool) {
	limit := started.Add(-racyWindow).UnixNano()
	for _, g := range grants {
		if g.access != accessList {
			continue
		}
		st := statStamp(g.path)
		st.listed = true
		if !st.exists || st.mtime.Nano() >= limit {
			return nil, false
		}
		out = append(out, st)
	}
	return out, true
}

// statStamp stats path, following symbolic links as the kernel does when
// a rule is made for it.
func statStamp(path string) stamp {
	var st unix.Stat_t
	if unix.Stat(path, &st) != nil {
		return stamp{path: path}
	}
	return stamp{path: path, exists: true, dev: st.Dev, ino: st.Ino, mtime: st.Mtim, ctime: st.Ctim}
}
