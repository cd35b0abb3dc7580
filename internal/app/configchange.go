package app

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"slices"

	"github.com/synaps-cli/synaps/internal/agent"
	"github.com/synaps-cli/synaps/internal/contract"
	"github.com/synaps-cli/synaps/internal/hook"
	"github.com/synaps-cli/synaps/internal/plugin"
	"github.com/synaps-cli/synaps/internal/safefile"
)

// Claude Code's ConfigChange, and synaps's on_config_change: a settings
// file whose hooks the session runs (~/.claude/settings.json, a trusted
// project's .claude/settings.json and .claude/settings.local.json) has
// changed since the session read it. Claude Code watches the files;
// synaps looks when the user sends a message, before before_message
// (a few small reads), so the hooks of that message are the new ones.
// The hooks in force hear of the change first: a block keeps the file as
// the session had it (its old contents stay in force until the next
// change is let through); otherwise the file's hooks are read again
// (extension.Host.Relink: no extension restarts).

// settingsFile is one settings file as the session last looked at it.
type settingsFile struct {
	// source is Claude's name for it: user_settings, project_settings,
	// local_settings.
	source string
	// data is what it held (nil and absent: there was no file).
	data   []byte
	absent bool
}

// settingsSource names the settings file of a claudeSource key.
var settingsSource = map[string]string{"user": "user_settings", "project": "project_settings", "local": "local_settings"}

// readSettings reads a settings file for the session's hooks: what a
// ConfigChange hook kept (held) if it blocked a change, else the file.
// A session's read (record) is remembered, to be compared with the file
// at the next prompt.
func (c *claudeHooks) readSettings(key, file string, record bool) ([]byte, error) {
	c.mu.Lock()
	held, isHeld := c.held[file]
	c.mu.Unlock()
	data, err := safefile.ReadAll(file, plugin.MaxManifestSize)
	if record && (err == nil || errors.Is(err, fs.ErrNotExist)) {
		c.mu.Lock()
		if c.seen == nil {
			c.seen = map[string]settingsFile{}
		}
		if _, ok := c.seen[file]; !ok || !isHeld {
			c.seen[file] = settingsFile{source: settingsSource[key], data: data, absent: err != nil}
		}
		c.mu.Unlock()
	}
	if isHeld {
		if held.absent {
			return nil, fs.ErrNotExist
		}
		return held.data, nil
	}
	return data, err
}

// settingsChange is a settings file that changed: as it is now, and as
// the session has it.
type settingsChange struct {
	file     string
	now, was settingsFile
}

// changedSettings compares the files the session read with the disk.
func (c *claudeHooks) changedSettings() []settingsChange {
	c.mu.Lock()
	seen := make(map[string]settingsFile, len(c.seen))
	for f, s := range c.seen {
		seen[f] = s
	}
	c.mu.Unlock()
	var out []settingsChange
	for _, f := range slices.Sorted(maps.Keys(seen)) {
		was := seen[f]
		data, err := safefile.ReadAll(f, plugin.MaxManifestSize)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			continue // unreadable now: said when it is read, not here
		}
		now := settingsFile{source: was.source, data: data, absent: err != nil}
		if now.absent == was.absent && bytes.Equal(now.data, was.data) {
			continue
		}
		out = append(out, settingsChange{file: f, now: now, was: was})
	}
	return out
}

// settle records that the session has looked at ch: let through, the
// file's contents are the disk's from now on; blocked (hold), the
// session keeps what it had, and the change is not asked about again.
func (c *claudeHooks) settle(ch settingsChange, hold bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.seen[ch.file] = ch.now
	if c.held == nil {
		c.held = map[string]settingsFile{}
	}
	switch _, already := c.held[ch.file]; {
	case !hold:
		delete(c.held, ch.file)
	case !already:
		c.held[ch.file] = ch.was
	}
}

// configChanges fires on_config_change for each settings file that
// changed since the session read it, and reads the hooks of those the
// hooks let through again. Called as the user sends a message.
func (a *App) configChanges(ctx context.Context) {
	if a.claude == nil || a.Host == nil {
		return
	}
	changed := a.claude.changedSettings()
	if len(changed) == 0 {
		return
	}
	note := func(format string, args ...any) {
		if a.opts.OnEvent != nil {
			a.opts.OnEvent(agent.Event{Type: agent.EventNotice, Text: fmt.Sprintf(format, args...)})
		}
	}
	relink := false
	sid := ""
	if a.Session != nil {
		sid = a.Session.ID
	}
	for _, ch := range changed {
		data, _ := json.Marshal(map[string]string{"source": ch.now.source, "file_path": ch.file})
		d := a.Host.RunHook(ctx, hook.Event{Kind: contract.HookOnConfigChange, SessionID: sid, Data: data})
		if d.Blocked || d.Stopped {
			by, why := d.BlockedBy, d.Reason
			if d.Stopped {
				by, why = d.StoppedBy, d.StopReason
			}
			a.claude.settle(ch, true)
			note("%s changed; the change is not applied to this session (%s: %s): its hooks stay as they were", ch.file, by, why)
			continue
		}
		a.claude.settle(ch, false)
		relink = true
		note("%s changed: its hooks are read again", ch.file)
	}
	if relink {
		a.Host.Relink()
		for _, w := range a.claude.takeWarnings() {
			note("%s", w)
		}
	}
}
