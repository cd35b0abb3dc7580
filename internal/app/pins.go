package app

import (
	"fmt"
	"strings"

	"github.com/synaps-cli/synaps/internal/config"
	"github.com/synaps-cli/synaps/internal/extension"
	"github.com/synaps-cli/synaps/internal/plugin"
)

// verifyMode is config plugins.verify for discovery (plugin.Discover).
func verifyMode(cfg *config.File) string {
	mode, _ := cfg.PluginsVerify()
	return mode
}

// CheckPins compares every user plugin of sts with its install record
// (plugin.CheckPin) and sets its Pin. It reads every file of those
// plugins, so the listings call it, not every redraw.
func CheckPins(baseDir string, sts []extension.Status) []extension.Status {
	for i := range sts {
		st := &sts[i]
		if st.Scope != plugin.ScopeUser || st.State == extension.StateUntrusted {
			continue
		}
		c := plugin.CheckPin(baseDir, &plugin.Plugin{ID: st.ID, Dir: st.Dir, Scope: st.Scope})
		st.Pin = &c
	}
	return sts
}

// pinLabel is the pin's part of the STATUS column: only a change is
// worth the column ("modified"); an unpinned plugin is a footnote.
func pinLabel(s extension.Status) string {
	if s.Pin != nil && (s.Pin.State == plugin.PinModified || s.Pin.State == plugin.PinUnknown) {
		return ", " + string(s.Pin.State)
	}
	return ""
}

// pinNotes are the lines under the listing that say what the pins found:
// each modified plugin with its changed files, and one line for all the
// unpinned ones.
func pinNotes(sts []extension.Status) string {
	var b strings.Builder
	var unpinned []string
	for _, s := range sts {
		if s.Pin == nil {
			continue
		}
		switch s.Pin.State {
		case plugin.PinModified:
			fmt.Fprintf(&b, "%s: modified since it was installed: %s; `synaps plugins approve %s` accepts the files as they are, a re-install replaces them\n", s.ID, s.Pin.Summary(), s.ID)
		case plugin.PinUnknown:
			fmt.Fprintf(&b, "%s: its install record cannot be checked: %s\n", s.ID, s.Pin.Problem)
		case plugin.PinUnpinned:
			unpinned = append(unpinned, s.ID)
		}
	}
	if len(unpinned) > 0 {
		fmt.Fprintf(&b, "unpinned (no install record: installed before synaps pinned plugins, or copied by hand): %s; `synaps plugins approve ID` pins a plugin to its files as they are now\n",
			strings.Join(unpinned, ", "))
	}
	return b.String()
}
