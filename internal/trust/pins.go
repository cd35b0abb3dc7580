package trust

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/synaps-cli/synaps/internal/plural"
	"github.com/synaps-cli/synaps/internal/safefile"
	"github.com/synaps-cli/synaps/internal/treesum"
)

// PinsDir holds one JSON file per trusted project, under the base dir:
// the digests of what `synaps trust` approved there. trusted-projects
// still says which directories are trusted; a trusted directory without
// a pins file (trusted before pins existed) trusts what it holds now,
// and the first session there records it (see State.Legacy).
const PinsDir = "trusted-items"

// Pin is what was approved of one item.
type Pin struct {
	Kind   string `json:"kind"`
	Name   string `json:"name"`
	File   string `json:"file"`
	Digest string `json:"digest"`
	// Text is the definition approved (hooks, MCP entries, small
	// files), so a change can be shown as a difference.
	Text string `json:"text,omitempty"`
}

// Pins are a project's approved items by id.
type Pins struct {
	Project string         `json:"project"`
	Items   map[string]Pin `json:"items"`
}

// PinsFile is the pins file of project.
func PinsFile(base, project string) string {
	s := sha256.Sum256([]byte(absPath(project)))
	return filepath.Join(base, PinsDir, hex.EncodeToString(s[:12])+".json")
}

// LoadPins reads project's pins; nil and no error when none were
// recorded. A file for another project (a hash collision, a copied base
// dir) counts as none.
func LoadPins(base, project string) (*Pins, error) {
	file := PinsFile(base, project)
	data, err := safefile.ReadAll(file, 16<<20)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var p Pins
	if err := json.Unmarshal(data, &p); err != nil {
		return nil, fmt.Errorf("%s: %v; run `synaps trust` in %s to write it again", file, err, project)
	}
	if p.Project != absPath(project) {
		return nil, nil
	}
	if p.Items == nil {
		p.Items = map[string]Pin{}
	}
	return &p, nil
}

// SavePins records items as project's approved content, replacing what
// was there (an item gone from the project is forgotten).
func SavePins(base, project string, items []Item) error {
	p := Pins{Project: absPath(project), Items: map[string]Pin{}}
	for _, it := range items {
		p.Items[it.ID] = Pin{Kind: it.Kind, Name: it.Name, File: it.File, Digest: it.Digest, Text: it.Text}
	}
	data, err := json.MarshalIndent(p, "", "  ")
	if err != nil {
		return err
	}
	file := PinsFile(base, project)
	if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(file), ".pins-*")
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
	return os.Rename(tmp.Name(), file)
}

// absPath is project as trusted-projects holds it: absolute and clean.
func absPath(project string) string {
	if abs, err := filepath.Abs(project); err == nil {
		return abs
	}
	return filepath.Clean(project)
}

// Reason says why an item is held back.
type Reason string

// Reasons an item is held back.
const (
	NotTrusted Reason = "not trusted"
	Changed    Reason = "changed since trusted"
	New        Reason = "new since trusted"
)

// Held is an item not loaded, and why; Was is what was approved of a
// changed item.
type Held struct {
	Item   Item
	Reason Reason
	Was    *Pin
}

// State is a project's trust as a session sees it.
type State struct {
	Project string
	// Listed: the directory is in trusted-projects (or trusted for this
	// run); only then is anything loaded.
	Listed bool
	// Once: trusted for this run (--trust-project, "trust once"):
	// everything loads, nothing is compared.
	Once bool
	// Legacy: listed, but no pins were ever recorded (trusted before
	// pins existed): everything loads, and the session records it.
	Legacy bool
	Items  []Item
	// Held are the items not loaded, in inventory order.
	Held     []Held
	Warnings []string
	held     map[string]Reason
	known    map[string]bool
}

// Evaluate lists project's items and holds back those that are not
// trusted: all of them when the directory is not listed, else those
// whose digest differs from the pinned one or that were never pinned.
func Evaluate(base, project string, listed, once bool) *State {
	s := &State{Project: project, Listed: listed || once, Once: once, held: map[string]Reason{}, known: map[string]bool{}}
	// A file the inventory cannot read is not listed; its loader says
	// why it cannot read it either.
	s.Items, _ = Inventory(project)
	for _, it := range s.Items {
		s.known[it.ID] = true
	}
	if once {
		return s
	}
	var pins *Pins
	if listed {
		var err error
		pins, err = LoadPins(base, project)
		if err != nil {
			s.Warnings = append(s.Warnings, err.Error())
			pins = &Pins{Items: map[string]Pin{}}
		}
		if pins == nil {
			s.Legacy = true
			return s
		}
	}
	for _, it := range s.Items {
		h := Held{Item: it, Reason: NotTrusted}
		if listed {
			p, ok := pins.Items[it.ID]
			switch {
			case !ok:
				h.Reason = New
			case p.Digest != it.Digest:
				h.Reason, h.Was = Changed, &p
			default:
				continue
			}
		}
		s.Held = append(s.Held, h)
		s.held[it.ID] = h.Reason
	}
	return s
}

// Allows reports whether the item id may load. An unlisted project's
// never do; when trusted for the run or before pins existed, all do;
// else only those pinned with their present digest (an id the inventory
// did not list, say a file that appeared since, is not allowed).
func (s *State) Allows(id string) bool {
	if s == nil || !s.Listed {
		return false
	}
	if s.Once || s.Legacy {
		return true
	}
	_, held := s.held[id]
	return s.known[id] && !held
}

// HeldReason is why id is held back ("" when it is not).
func (s *State) HeldReason(id string) Reason {
	if s == nil {
		return ""
	}
	return s.held[id]
}

// Note says what was held back and the one command that trusts it, or
// "" when nothing was: the line every front-end prints at start, so that
// no guard is skipped without a word.
func (s *State) Note() string {
	if s == nil || len(s.Held) == 0 {
		return ""
	}
	by := map[Reason][]string{}
	for _, h := range s.Held {
		by[h.Reason] = append(by[h.Reason], h.Item.Label())
	}
	if !s.Listed {
		l := by[NotTrusted]
		return fmt.Sprintf("this project is not trusted, so synaps skipped %s: %s; run `synaps trust` here to trust it, or pass --trust-project for one run",
			plural.Count(len(l), "item"), strings.Join(l, ", "))
	}
	var parts []string
	for _, r := range []Reason{Changed, New} {
		if l := by[r]; len(l) > 0 {
			parts = append(parts, fmt.Sprintf("%s %s", r, strings.Join(l, ", ")))
		}
	}
	n := len(s.Held)
	return fmt.Sprintf("this project is trusted, but synaps held back %s that %s not what you trusted: %s; run `synaps trust` here to approve %s (it lists what it approves), or pass --trust-project for one run",
		plural.Count(n, "item"), plural.Pick(n, "is", "are"), strings.Join(parts, "; "), plural.Pick(n, "it", "them"))
}

// HeldPlugins is which project plugins (by directory name) a trusted
// project holds back because their files are not what was approved; nil
// when the project has no pins (trusted before pins existed).
func HeldPlugins(base, project string) map[string]Reason {
	pins, err := LoadPins(base, project)
	if err != nil {
		pins = &Pins{Items: map[string]Pin{}}
	}
	if pins == nil {
		return nil
	}
	out := map[string]Reason{}
	pdir := filepath.Join(project, ".synaps", "plugins")
	ents, _ := os.ReadDir(pdir)
	names := make([]string, 0, len(ents))
	for _, e := range ents {
		names = append(names, e.Name())
	}
	sort.Strings(names)
	for _, n := range names {
		if strings.HasPrefix(n, ".") {
			continue
		}
		path := filepath.Join(pdir, n)
		if fi, err := os.Stat(path); err != nil || !fi.IsDir() {
			continue
		}
		p, ok := pins.Items[PluginID(n)]
		if !ok {
			out[n] = New
			continue
		}
		if d, err := treesum.Digest(path); err != nil || d != p.Digest {
			out[n] = Changed
		}
	}
	return out
}

// Difference is where a changed definition differs from the approved
// one: the first line that differs in each, cut to start a little before
// the first differing character, so a one-line JSON hook shows its
// edited command rather than its unchanged start.
func Difference(was, now string) (string, string) {
	wl, nl := strings.Split(was, "\n"), strings.Split(now, "\n")
	i := 0
	for i < len(wl) && i < len(nl) && wl[i] == nl[i] {
		i++
	}
	line := func(ls []string) string {
		if i < len(ls) {
			return ls[i]
		}
		return ""
	}
	a, b := line(wl), line(nl)
	p := 0
	for p < len(a) && p < len(b) && a[p] == b[p] {
		p++
	}
	if p > 24 {
		// back to a rune boundary, so the cut never splits a character
		start := p - 16
		for start > 0 && (a[start]&0xC0) == 0x80 {
			start--
		}
		a, b = "…"+a[start:], "…"+b[start:]
	}
	return a, b
}
