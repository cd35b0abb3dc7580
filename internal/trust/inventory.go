// Package trust is what trusting a project enables, item by item, and
// what a trusted project's items were when the user trusted them.
//
// A project ships things that run code or change what runs: plugins in
// .synaps/plugins, Claude Code hooks in .claude/settings.json and
// settings.local.json, commands and agents in .synaps/ and .claude/, MCP
// servers in .mcp.json, .synaps/mcp.json and .cursor/mcp.json. Inventory
// lists each of them with a stable id and a digest of its content;
// `synaps trust` records those digests (Pins), and a later session holds
// back exactly the items whose digest is new or changed (Evaluate), so a
// pulled branch that edits a guard hook or adds a command is asked about
// again instead of running because the directory was trusted once.
//
// The package reads files only; it knows nothing of how each kind is
// loaded, so the plugin, MCP, command and hook loaders can all ask it.
package trust

import (
	"bytes"
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

	"github.com/synaps-cli/synaps/internal/safefile"
	"github.com/synaps-cli/synaps/internal/treesum"
)

// Kinds of items trust gates.
const (
	KindPlugin  = "plugin"
	KindHook    = "hook"
	KindCommand = "command"
	KindAgent   = "agent"
	KindMCP     = "MCP server"
)

// Item is one thing a trusted project enables.
type Item struct {
	// ID is stable across sessions while the item keeps its place:
	// "<kind>:<file>[:<key>]", the file relative to the project.
	ID   string `json:"id"`
	Kind string `json:"kind"`
	// Name is what people call it: a plugin's directory, "/name" of a
	// command, "PreToolUse Bash" of a hook, a server's name.
	Name string `json:"name"`
	// File is the source, relative to the project (slash-separated).
	File string `json:"file"`
	// Digest is "sha256:<hex>" of the item's content: the hook's
	// definition and the MCP server's entry as canonical JSON, the
	// command or agent file's bytes, the plugin directory's file tree.
	Digest string `json:"digest"`
	// Text is the definition itself (hook and MCP entries, command and
	// agent files up to 4 KiB), for showing what changed; not stored.
	Text string `json:"-"`
}

// Label is how a note names the item: kind, name and file.
func (it Item) Label() string {
	switch it.Kind {
	case KindPlugin:
		return fmt.Sprintf("plugin %s (%s)", it.Name, it.File)
	case KindHook:
		return fmt.Sprintf("hook %s (%s)", it.Name, it.File)
	case KindCommand:
		return fmt.Sprintf("command %s (%s)", it.Name, it.File)
	case KindAgent:
		return fmt.Sprintf("agent %s (%s)", it.Name, it.File)
	default:
		return fmt.Sprintf("%s %s (%s)", it.Kind, it.Name, it.File)
	}
}

// Settings files whose hooks trust gates, relative to the project.
var SettingsFiles = []string{".claude/settings.json", ".claude/settings.local.json"}

// MCPFiles are the project's MCP configuration files.
var MCPFiles = []string{".cursor/mcp.json", ".mcp.json", ".synaps/mcp.json"}

// commandDirs and agentDirs hold the project's Markdown commands
// (searched recursively, as command.Load does) and agents (one level).
var (
	commandDirs = []string{".synaps/commands", ".claude/commands"}
	agentDirs   = []string{".synaps/agents", ".claude/agents"}
)

// maxFile bounds a settings, MCP, command or agent file read here (the
// loaders use the same bound and refuse larger ones).
const maxFile = 1 << 20

// Inventory lists what the project at dir ships that trust gates, in a
// stable order. A file that cannot be read or parsed adds a warning and
// no items: its loader refuses it too, with its own message.
func Inventory(dir string) ([]Item, []string) {
	var items []Item
	var warnings []string
	warn := func(err error) { warnings = append(warnings, err.Error()) }

	pdir := filepath.Join(dir, ".synaps", "plugins")
	if ents, err := os.ReadDir(pdir); err == nil {
		for _, e := range ents {
			if strings.HasPrefix(e.Name(), ".") {
				continue
			}
			path := filepath.Join(pdir, e.Name())
			if fi, err := os.Stat(path); err != nil || !fi.IsDir() {
				continue
			}
			d, err := treesum.Digest(path)
			if err != nil {
				warn(err)
				d = "unreadable"
			}
			items = append(items, Item{ID: PluginID(e.Name()), Kind: KindPlugin, Name: e.Name(), File: ".synaps/plugins/" + e.Name(), Digest: d})
		}
	}
	for _, rel := range SettingsFiles {
		data, err := safefile.ReadAll(filepath.Join(dir, rel), maxFile)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			warn(err)
			continue
		}
		hs, err := settingsHooks(rel, data)
		if err != nil {
			warn(err)
		}
		items = append(items, hs...)
	}
	for _, d := range commandDirs {
		root := filepath.Join(dir, d)
		_ = filepath.WalkDir(root, func(path string, e fs.DirEntry, err error) error {
			if err != nil || e.IsDir() || !strings.EqualFold(filepath.Ext(path), ".md") {
				return nil
			}
			if it, ok := fileItem(dir, path, KindCommand, warn); ok {
				items = append(items, it)
			}
			return nil
		})
	}
	for _, d := range agentDirs {
		ents, _ := os.ReadDir(filepath.Join(dir, d))
		for _, e := range ents {
			if e.IsDir() || !strings.EqualFold(filepath.Ext(e.Name()), ".md") {
				continue
			}
			if it, ok := fileItem(dir, filepath.Join(dir, d, e.Name()), KindAgent, warn); ok {
				items = append(items, it)
			}
		}
	}
	for _, rel := range MCPFiles {
		data, err := safefile.ReadAll(filepath.Join(dir, rel), maxFile)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			warn(err)
			continue
		}
		ms, err := mcpEntries(rel, data)
		if err != nil {
			warn(err)
		}
		items = append(items, ms...)
	}
	return items, warnings
}

// PluginID is the item id of the project plugin in .synaps/plugins/name.
func PluginID(name string) string { return "plugin:.synaps/plugins/" + name }

// FileID is the item id of a command or agent file (rel to the project).
func FileID(kind, rel string) string {
	k := "command"
	if kind == KindAgent {
		k = "agent"
	}
	return k + ":" + filepath.ToSlash(rel)
}

// MCPID is the item id of server name in the project's file rel.
func MCPID(rel, name string) string { return "mcp:" + filepath.ToSlash(rel) + ":" + name }

// hookID is the item id of a settings file's hook group: its event, its
// matcher and its place among the groups of that event and matcher, so
// editing a hook's command keeps its id (and reads as changed) while a
// group added for another tool is a new id.
func hookID(rel, event, matcher string, n int) string {
	return fmt.Sprintf("hook:%s:%s:%s:%d", filepath.ToSlash(rel), event, matcher, n)
}

func fileItem(project, path, kind string, warn func(error)) (Item, bool) {
	data, err := safefile.ReadAll(path, maxFile)
	if err != nil {
		warn(err)
		return Item{}, false
	}
	rel, _ := filepath.Rel(project, path)
	name := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	if kind == KindCommand {
		name = "/" + name
	}
	text := string(data)
	if len(text) > 4096 {
		text = text[:4096] + "…"
	}
	return Item{ID: FileID(kind, rel), Kind: kind, Name: name, File: filepath.ToSlash(rel), Digest: digestBytes(data), Text: text}, true
}

func digestBytes(b []byte) string {
	s := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(s[:])
}

// canonical is v as compact JSON with sorted keys: the same definition
// written with other spacing or key order has the same digest.
func canonical(raw json.RawMessage) (string, error) {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return "", err
	}
	// Not HTML-escaped: the text is shown to people (a hook's "2>&1"
	// stays readable in the trust dialog).
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return "", err
	}
	return strings.TrimSuffix(b.String(), "\n"), nil
}

// settingsHooks lists a settings file's hook groups, one item each.
func settingsHooks(rel string, data []byte) ([]Item, error) {
	var top struct {
		Hooks map[string][]json.RawMessage `json:"hooks"`
	}
	if err := json.Unmarshal(data, &top); err != nil {
		return nil, fmt.Errorf("%s: %v; its hooks are not listed", rel, err)
	}
	events := make([]string, 0, len(top.Hooks))
	for ev := range top.Hooks {
		events = append(events, ev)
	}
	sort.Strings(events)
	var out []Item
	for _, ev := range events {
		seen := map[string]int{}
		for _, g := range top.Hooks[ev] {
			c, err := canonical(g)
			if err != nil {
				continue
			}
			m := matcherOf(g)
			id := hookID(rel, ev, m, seen[m])
			seen[m]++
			name := ev
			if m != "" {
				name += " " + m
			}
			out = append(out, Item{ID: id, Kind: KindHook, Name: name, File: filepath.ToSlash(rel), Digest: digestBytes([]byte(c)), Text: c})
		}
	}
	return out, nil
}

func matcherOf(g json.RawMessage) string {
	var m struct {
		Matcher string `json:"matcher"`
	}
	_ = json.Unmarshal(g, &m)
	return m.Matcher
}

// FilterSettings returns a settings file's data without the hook groups
// allow refuses, for the hook loader. Data that does not parse is
// returned as is: the loader refuses it with its own message.
func FilterSettings(rel string, data []byte, allow func(id string) bool) []byte {
	var top map[string]json.RawMessage
	if json.Unmarshal(data, &top) != nil {
		return data
	}
	var hooks map[string][]json.RawMessage
	if raw, ok := top["hooks"]; !ok || json.Unmarshal(raw, &hooks) != nil {
		return data
	}
	dropped := false
	for ev, groups := range hooks {
		seen := map[string]int{}
		kept := groups[:0:0]
		for _, g := range groups {
			m := matcherOf(g)
			id := hookID(rel, ev, m, seen[m])
			seen[m]++
			if allow(id) {
				kept = append(kept, g)
			} else {
				dropped = true
			}
		}
		hooks[ev] = kept
	}
	if !dropped {
		return data
	}
	b, err := json.Marshal(hooks)
	if err != nil {
		return data
	}
	top["hooks"] = b
	out, err := json.Marshal(top)
	if err != nil {
		return data
	}
	return out
}

// mcpEntries lists an MCP file's servers: those of "mcpServers", else
// "servers" (VS Code), else the top level (as the MCP loader reads it).
func mcpEntries(rel string, data []byte) ([]Item, error) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		return nil, fmt.Errorf("%s: %v; its servers are not listed", rel, err)
	}
	servers := top
	for _, key := range []string{"mcpServers", "servers"} {
		if raw, ok := top[key]; ok {
			servers = nil
			if err := json.Unmarshal(raw, &servers); err != nil {
				return nil, fmt.Errorf("%s: %s is not an object", rel, key)
			}
			break
		}
	}
	names := make([]string, 0, len(servers))
	for n := range servers {
		names = append(names, n)
	}
	sort.Strings(names)
	var out []Item
	for _, n := range names {
		c, err := canonical(servers[n])
		if err != nil {
			continue
		}
		out = append(out, Item{ID: MCPID(rel, n), Kind: KindMCP, Name: n, File: filepath.ToSlash(rel), Digest: digestBytes([]byte(c)), Text: c})
	}
	return out, nil
}
