package plugin

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/synaps-cli/synaps/internal/safefile"
	"github.com/synaps-cli/synaps/internal/treesum"
)

// Pins: `synaps plugins install` records what it installed — a digest of
// the plugin's file tree and where it came from — so that a plugin whose
// files change on disk afterwards (a self-updating script, a hand edit, a
// tool writing into it) is shown as modified, and with plugins.verify =
// strict is not started until the user approves it again.
//
// The records live outside the plugins, in <base>/plugin-pins/<id>.json:
// a plugin's own tree is what is measured, and a record inside it would
// both change the digest and sit where the plugin's processes write.

// PinsDir is the base directory's folder of install records.
const PinsDir = "plugin-pins"

// Bounds of one digest: a plugin larger than this is not pinned (its
// record says why) rather than slowing every start that verifies it.
const (
	MaxPinFiles = 20000
	MaxPinBytes = 512 << 20
)

// PinSource is where an installed plugin came from.
type PinSource struct {
	// Kind is "dir", "git", "link" or "marketplace".
	Kind string `json:"kind"`
	// Location is what was installed: a directory, a git URL, or
	// NAME@MARKETPLACE; `synaps plugins update` installs from it again.
	Location string `json:"location"`
	// Commit is the git commit cloned (git sources).
	Commit string `json:"commit,omitempty"`
	// SHA256 is the digest of the source tree as found, before setup
	// ran (directory and marketplace-directory sources).
	SHA256 string `json:"sha256,omitempty"`
}

// PinRecord is one plugin's install record.
type PinRecord struct {
	ID       string    `json:"id"`
	Version  string    `json:"version,omitempty"`
	PinnedAt time.Time `json:"pinned_at"`
	// How is "install", "update" or "approve".
	How    string    `json:"how"`
	Source PinSource `json:"source"`
	// Digest is "sha256:<hex>" over Files; Files maps each relative path
	// (slash-separated) to "<mode> <sha256 of the bytes>" for a file,
	// "<mode> -> <target>" for a symlink, "<mode>" for a directory.
	Digest string            `json:"digest"`
	Files  map[string]string `json:"files"`
}

// PinState is what the pin says about a plugin now.
type PinState string

const (
	PinPinned   PinState = "pinned"   // the files are as installed or approved
	PinModified PinState = "modified" // files changed since
	PinUnpinned PinState = "unpinned" // no install record (installed before pinning, or copied by hand)
	PinLinked   PinState = "linked"   // installed with --link: a directory being developed, not pinned
	PinUnknown  PinState = "unreadable"
)

// PinCheck is the result of comparing a plugin with its record.
type PinCheck struct {
	State PinState `json:"state"`
	// Changed lists what differs, sorted: "path (changed)", "path
	// (added)", "path (removed)".
	Changed []string `json:"changed,omitempty"`
	// Problem says why the check could not be made (PinUnknown).
	Problem string `json:"problem,omitempty"`
}

// Summary is the changed files for one line: the count and the first
// three.
func (c PinCheck) Summary() string {
	n := len(c.Changed)
	if n == 0 {
		return ""
	}
	first := c.Changed
	if n > 3 {
		first = first[:3]
	}
	s := fmt.Sprintf("%d %s: %s", n, map[bool]string{true: "file", false: "files"}[n == 1], strings.Join(first, ", "))
	if n > 3 {
		s += ", …"
	}
	return s
}

// PinFile is the record path of plugin id.
func PinFile(baseDir, id string) string {
	return filepath.Join(baseDir, PinsDir, id+".json")
}

// ReadPin reads plugin id's record; nil, nil when there is none.
func ReadPin(baseDir, id string) (*PinRecord, error) {
	if err := CheckID(id); err != nil {
		return nil, err
	}
	path := PinFile(baseDir, id)
	data, err := safefile.ReadAll(path, 64<<20)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var r PinRecord
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("%s: not a valid install record (%v); `synaps plugins approve %s` writes a new one", path, err, id)
	}
	if r.Source.Kind != "link" && (r.Files == nil || !strings.HasPrefix(r.Digest, "sha256:")) {
		return nil, fmt.Errorf("%s: the record has no digest or files; `synaps plugins approve %s` writes a new one", path, id)
	}
	return &r, nil
}

// WritePin stores r atomically (a temporary file renamed into place).
func WritePin(baseDir string, r *PinRecord) error {
	if err := CheckID(r.ID); err != nil {
		return err
	}
	dir := filepath.Join(baseDir, PinsDir)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	data, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, "."+r.ID+".json-")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(append(data, '\n')); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), PinFile(baseDir, r.ID))
}

// RemovePin deletes plugin id's record, if any.
func RemovePin(baseDir, id string) error {
	if CheckID(id) != nil {
		return nil
	}
	err := os.Remove(PinFile(baseDir, id))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return err
}

// Digest measures the tree at dir (treesum.Tree, the digest project
// trust records too): every entry's relative path and mode, each file's
// bytes, each symlink's target (not followed), leaving out VCS metadata
// and the byte-code caches interpreters write beside the scripts they
// run (python3 writes __pycache__ into the plugin the first time it
// imports a module, which would otherwise make every Python plugin
// "modified" after its first start). It stops with an error past
// MaxPinFiles entries or MaxPinBytes bytes, or at anything that is not a
// file, directory or symlink.
//
// The plugin's config file at its root (plugins/<id>/config, which
// `synaps extensions config ID KEY VALUE` writes, with the config.lock
// its writers share) is the user's, not the plugin's: it is left out,
// or setting a documented option would list the plugin as modified (and
// hold it back under plugins.verify = strict).
func Digest(dir string) (digest string, files map[string]string, err error) {
	return treesum.Tree(dir, treesum.Limits{MaxEntries: MaxPinFiles, MaxBytes: MaxPinBytes, SkipRoot: userConfigFiles})
}

// userConfigFiles are the entries at a plugin's root that belong to its
// user: its config file and the lock of that file's writers.
var userConfigFiles = []string{"config", "config.lock"}

// CheckPin compares the user plugin p with its install record. Project
// plugins are governed by project trust, not pins: they are PinPinned's
// zero value "" (nothing to say).
func CheckPin(baseDir string, p *Plugin) PinCheck {
	if p.Scope != ScopeUser || p.Untrusted {
		return PinCheck{}
	}
	r, err := ReadPin(baseDir, p.ID)
	if err != nil {
		return PinCheck{State: PinUnknown, Problem: err.Error()}
	}
	if r == nil {
		return PinCheck{State: PinUnpinned}
	}
	if r.Source.Kind == "link" {
		return PinCheck{State: PinLinked}
	}
	root, err := filepath.EvalSymlinks(p.Dir)
	if err != nil {
		return PinCheck{State: PinUnknown, Problem: err.Error()}
	}
	// A session checks pins at every discovery: treesum remembers each
	// file's sum while the file's identity and times stand, so a check
	// after the first costs a walk of the tree, not a read of it.
	digest, files, err := Digest(root)
	if err != nil {
		return PinCheck{State: PinUnknown, Problem: err.Error()}
	}
	if digest == r.Digest {
		return PinCheck{State: PinPinned}
	}
	return PinCheck{State: PinModified, Changed: DiffFiles(r.Files, files)}
}

// DiffFiles lists what differs between two file maps of Digest.
func DiffFiles(was, now map[string]string) []string {
	var out []string
	for p, e := range now {
		switch old, ok := was[p]; {
		case !ok:
			out = append(out, p+" (added)")
		case old != e:
			out = append(out, p+" (changed)")
		}
	}
	for p := range was {
		if _, ok := now[p]; !ok {
			out = append(out, p+" (removed)")
		}
	}
	sort.Strings(out)
	return out
}

// Pin records p's files as they are now.
func Pin(baseDir string, p *Plugin, how string, src PinSource) (*PinRecord, error) {
	r := &PinRecord{ID: p.ID, PinnedAt: time.Now().UTC(), How: how, Source: src}
	if p.Manifest != nil {
		r.Version = p.Manifest.Version
	}
	if src.Kind != "link" {
		digest, files, err := Digest(p.Dir)
		if err != nil {
			return nil, fmt.Errorf("not pinned: %w", err)
		}
		r.Digest, r.Files = digest, files
	}
	return r, WritePin(baseDir, r)
}

// heldErr is why plugins.verify = strict holds a modified plugin.
func heldErr(p *Plugin, c PinCheck) error {
	return fmt.Errorf("held: its files changed since it was installed (%s), and plugins.verify = strict starts it only once approved: review the changes, then `synaps plugins approve %s` (or re-install it)", c.Summary(), p.ID)
}

// VerifyStrict is the config value of plugins.verify that holds modified
// plugins.
const VerifyStrict = "strict"

// holdModified applies plugins.verify = strict to the discovered user
// plugins: one whose files changed since install fails to load with the
// reason, nothing of it runs, and a fail-closed guard's tool calls stay
// blocked (BrokenGuard) instead of running unguarded.
func holdModified(baseDir string, plugins []*Plugin) {
	for _, p := range plugins {
		if p.Err != nil || p.Scope != ScopeUser || p.Untrusted || p.Disabled {
			continue
		}
		c := CheckPin(baseDir, p)
		switch c.State {
		case PinModified:
			p.Err = heldErr(p, c)
		case PinUnknown:
			p.Err = fmt.Errorf("held: its install record cannot be checked (%s), and plugins.verify = strict starts only plugins that match theirs: `synaps plugins approve %s` pins it as it is now", c.Problem, p.ID)
		default:
			continue
		}
		p.PinHeld = true
		p.BrokenGuard = brokenGuardSubs(p.Dir, p.Manifest, nil)
		p.Manifest, p.ExtensionErr = nil, nil
	}
}

// FileCount is how many files and symlinks the record pins (its
// directories not counted), for messages.
func (r *PinRecord) FileCount() int {
	n := 0
	for _, e := range r.Files {
		if !strings.HasPrefix(e, "d") {
			n++
		}
	}
	return n
}
