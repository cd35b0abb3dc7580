package session

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// Listing sessions and choosing one: the listing read from the session
// index (newest first, the unreadable listed with why), the newest
// session, the newest of a directory (--continue), and a session named by
// the start of its id (Resolve).

// Info summarises a session for listings.
type Info struct {
	ID       string `json:"id"`
	Time     string `json:"time"`
	Model    string `json:"model,omitempty"`
	Cwd      string `json:"cwd,omitempty"`
	Messages int    `json:"messages"`
	Title    string `json:"title"` // the first user message, cut short
	// Damaged counts the lines of the file that could not be read and
	// were skipped; the rest of the session can be resumed.
	Damaged int `json:"damaged_lines,omitempty"`
	// Error says why the session cannot be read at all ("" when it can).
	Error string `json:"error,omitempty"`
}

// List returns the sessions, newest first. Empty sessions (a header and
// nothing else) are left out. It reads the session index, not the
// sessions (see index.go); what it had to rebuild is not said (ListWarn).
func List(baseDir string) ([]Info, error) {
	out, _, err := ListWarn(baseDir)
	return out, err
}

// ListWarn is List, with warnings about index entries that could not be
// trusted and were rebuilt from their session files.
func ListWarn(baseDir string) ([]Info, []string, error) {
	entries, err := os.ReadDir(Dir(baseDir))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	var out []Info
	var warnings []string
	for _, e := range entries {
		id, ok := strings.CutSuffix(e.Name(), ".jsonl")
		if !ok || e.IsDir() {
			continue
		}
		fi, err := e.Info()
		if err != nil {
			continue // removed since the directory was read
		}
		info, listed, warning, err := indexed(baseDir, id, fi)
		if warning != "" {
			warnings = append(warnings, warning)
		}
		if err != nil && nothingSaved(filepath.Join(Dir(baseDir), e.Name())) {
			// Killed while its file was being created: not even the
			// header line was completed, so there is nothing to resume.
			continue
		}
		if err != nil {
			// Listed, not hidden: the user sees that it is there and why
			// it cannot be resumed.
			info := Info{ID: id, Error: err.Error()}
			if t, perr := time.Parse("20060102-150405", idPart(id, 0)+"-"+idPart(id, 1)); perr == nil {
				info.Time = t.UTC().Format(time.RFC3339Nano)
			}
			out = append(out, info)
			continue
		}
		if !listed {
			// A launch that sent nothing (older versions wrote a file for
			// it): nothing to resume, so neither listed nor continued.
			continue
		}
		out = append(out, info)
	}
	// Newest first by the header's nanosecond time: two sessions started
	// in the same second have ids that do not sort by age.
	sort.Slice(out, func(i, j int) bool {
		ti, ei := time.Parse(time.RFC3339Nano, out[i].Time)
		tj, ej := time.Parse(time.RFC3339Nano, out[j].Time)
		if ei == nil && ej == nil && !ti.Equal(tj) {
			return ti.After(tj)
		}
		return out[i].ID > out[j].ID
	})
	return out, warnings, nil
}

// Latest returns the id of the newest session, or "" when there is none.
// When the newest cannot be read, that is an error: continuing an older
// session instead would be a silent surprise.
func Latest(baseDir string) (string, error) {
	id, _, err := LatestWarn(baseDir)
	return id, err
}

// LatestWarn is Latest, with the warnings of ListWarn.
func LatestWarn(baseDir string) (string, []string, error) {
	list, warnings, err := ListWarn(baseDir)
	if err != nil || len(list) == 0 {
		return "", warnings, err
	}
	if list[0].Error != "" {
		return "", warnings, fmt.Errorf("the newest session, %s, cannot be read: %s; resume another with --resume ID (`synaps sessions list` shows them)", list[0].ID, list[0].Error)
	}
	return list[0].ID, warnings, nil
}

// Resolve finds the session ref names: its id, or a unique start of one
// (20261203-1020 for 20261203-102010-ab3c), as `synaps send` takes. A ref
// no session starts with comes back as it is, so that opening it says
// what is missing; one that several start with is an error listing
// them. A ref that cannot be an id (CheckID: "../x", "/etc/passwd") is
// an *IDError.
func Resolve(baseDir, ref string) (string, error) {
	if ref == "" {
		return ref, nil
	}
	if err := CheckID(ref); err != nil {
		return "", err
	}
	if _, err := os.Stat(filepath.Join(Dir(baseDir), ref+".jsonl")); err == nil {
		return ref, nil
	}
	entries, err := os.ReadDir(Dir(baseDir))
	if err != nil {
		return ref, nil
	}
	var found []string
	for _, e := range entries {
		if id, ok := strings.CutSuffix(e.Name(), ".jsonl"); ok && !e.IsDir() && strings.HasPrefix(id, ref) {
			found = append(found, id)
		}
	}
	switch {
	case len(found) == 1:
		return found[0], nil
	case len(found) > 1:
		sort.Sort(sort.Reverse(sort.StringSlice(found)))
		shown := found
		if len(shown) > 5 {
			shown = shown[:5]
		}
		more := ""
		if len(found) > len(shown) {
			more = fmt.Sprintf(" and %d more", len(found)-len(shown))
		}
		return "", fmt.Errorf("%d sessions start with %q (%s%s); give more of the id", len(found), ref, strings.Join(shown, ", "), more)
	}
	return ref, nil
}

// LatestIn returns the id of the session started in dir (its header's
// cwd) that was used last — the one whose file was written last — or ""
// when dir has none: --continue goes on with this project's latest
// conversation, as Claude Code's does, never with one whose tools ran
// somewhere else, and a session resumed yesterday counts as newer than
// one started the day before and left. A session that cannot be read and
// was started after dir's newest is an error, as in LatestWarn: it may be
// dir's.
func LatestIn(baseDir, dir string) (string, []string, error) {
	list, warnings, err := ListWarn(baseDir)
	if err != nil {
		return "", warnings, err
	}
	here := sameDirAs(dir)
	best, bestUsed := "", time.Time{}
	for _, info := range list {
		if info.Error != "" {
			if best == "" {
				return "", warnings, fmt.Errorf("the newest session, %s, cannot be read: %s; resume another with --resume ID (`synaps sessions list` shows them)", info.ID, info.Error)
			}
			continue
		}
		if !here(info.Cwd) {
			continue
		}
		var used time.Time
		if fi, err := os.Stat(filepath.Join(Dir(baseDir), info.ID+".jsonl")); err == nil {
			used = fi.ModTime()
		}
		if best == "" || used.After(bestUsed) {
			best, bestUsed = info.ID, used
		}
	}
	return best, warnings, nil
}

// sameDirAs returns SameDir(·, dir) for many sessions' directories: dir
// is resolved once and each other directory once, however many sessions
// were started in it.
func sameDirAs(dir string) func(string) bool {
	clean := filepath.Clean(dir)
	resolved, err := filepath.EvalSymlinks(dir)
	seen := map[string]bool{}
	return func(cwd string) bool {
		if cwd == "" || dir == "" {
			return false
		}
		if filepath.Clean(cwd) == clean {
			return true
		}
		if err != nil {
			return false
		}
		same, ok := seen[cwd]
		if !ok {
			r, rerr := filepath.EvalSymlinks(cwd)
			same = rerr == nil && r == resolved
			seen[cwd] = same
		}
		return same
	}
}

// SameDir reports whether a and b name the same directory: equal once
// cleaned, or once symbolic links are resolved (/tmp and /private/tmp).
func SameDir(a, b string) bool {
	if a == "" || b == "" {
		return false
	}
	if filepath.Clean(a) == filepath.Clean(b) {
		return true
	}
	ra, err1 := filepath.EvalSymlinks(a)
	rb, err2 := filepath.EvalSymlinks(b)
	return err1 == nil && err2 == nil && ra == rb
}

// nothingSaved reports whether the file at path holds no complete line:
// a session file whose creation was cut short (a crash between creating
// it and finishing the header).
func nothingSaved(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	buf := make([]byte, 64<<10)
	n, _ := io.ReadFull(f, buf)
	return n < len(buf) && !bytes.Contains(buf[:n], []byte{'\n'})
}

// idPart is the i-th dash-separated part of a session id, or "".
func idPart(id string, i int) string {
	parts := strings.SplitN(id, "-", 3)
	if i < len(parts) {
		return parts[i]
	}
	return ""
}
