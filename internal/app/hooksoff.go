package app

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/synaps-cli/synaps/internal/config"
	"github.com/synaps-cli/synaps/internal/spelling"
)

// SetHookDisabled turns the hook id off (or on again) in config
// disabled_hooks, by its stable id, so that the choice outlives a plugin
// update. The id must be one `synaps hooks` lists (turning on also takes
// an id that is only in the config, of a plugin since removed); an
// unknown one is an error naming the ids nearest to it. It returns the
// config file written.
func SetHookDisabled(ctx context.Context, o Options, id string, off bool) (string, error) {
	a, err := openLister(o)
	if err != nil {
		return "", err
	}
	list, err := a.listHooks(ctx, false, nil)
	if err != nil {
		return "", err
	}
	path := filepath.Join(a.BaseDir, "config")
	listed := false
	var ids []string
	for _, h := range list.Hooks {
		if h.Kind != "permission" {
			ids = append(ids, h.ID)
		}
		if h.ID != id {
			continue
		}
		if h.Kind == "permission" {
			return "", fmt.Errorf("%s is a permission rule or the permission mode, which is changed where it is written (%s), not turned off by id", id, h.Source)
		}
		listed = true
	}
	inConfig := slices.Contains(a.Config.List(config.KeyDisabledHooks), id)
	if !listed && !(inConfig && !off) {
		return "", unknownHookError(id, ids, a.WorkDir)
	}
	err = config.Update(path, config.KeyDisabledHooks, func(v string, _ bool) (string, error) {
		ids := config.SplitList(v)
		has := slices.Contains(ids, id)
		switch {
		case off && !has:
			ids = append(ids, id)
		case !off && has:
			ids = slices.DeleteFunc(ids, func(s string) bool { return s == id })
		}
		return strings.Join(ids, ", "), nil
	})
	return path, err
}

// unknownHookError says that no hook of dir has id, naming the nearest
// ids: those that contain it (a plugin id alone), else those a few edits
// away.
func unknownHookError(id string, ids []string, dir string) error {
	var near []string
	for _, c := range ids {
		if strings.Contains(c, id) {
			near = append(near, c)
		}
	}
	if len(near) == 0 {
		type cand struct {
			id string
			d  int
		}
		var cands []cand
		for _, c := range ids {
			// Against the whole id, and against its source alone (the
			// plugin id a user is likely to type).
			d := spelling.Distance(strings.ToLower(id), strings.ToLower(c))
			if _, rest, ok := strings.Cut(c, ":"); ok {
				src, _, _ := strings.Cut(rest, "/")
				d = min(d, spelling.Distance(strings.ToLower(id), strings.ToLower(src)))
			}
			if d <= max(2, len(id)/4) {
				cands = append(cands, cand{c, d})
			}
		}
		// The nearest only: ext:a-gaurd/before_tool_call is not also
		// ext:a-guard/after_tool_call.
		best := slices.MinFunc(append(cands, cand{d: 1 << 30}), func(a, b cand) int { return a.d - b.d }).d
		for _, c := range cands {
			if c.d == best {
				near = append(near, c.id)
			}
		}
	}
	near = slices.Compact(near)
	msg := fmt.Sprintf("no hook %q in %s", id, dir)
	switch {
	case len(near) > 0:
		if len(near) > 8 {
			near = append(near[:8], "…")
		}
		msg += "; did you mean " + strings.Join(near, ", ") + "?"
	case len(ids) == 0:
		msg += "; no hook is configured here"
	}
	return fmt.Errorf("%s (`synaps hooks` lists every hook id)", msg)
}

// FormatHooks is the listing as text: one block per event, its links in
// chain order, each with where it is declared and, when it does not run
// (or runs with a caveat), why.
func FormatHooks(list *HookList) string {
	var b strings.Builder
	if len(list.Hooks) == 0 {
		b.WriteString("no hooks\n")
	}
	for i := 0; i < len(list.Hooks); {
		j := i
		for j < len(list.Hooks) && list.Hooks[j].Event == list.Hooks[i].Event {
			j++
		}
		if i > 0 {
			b.WriteString("\n")
		}
		b.WriteString(list.Hooks[i].Event + "\n")
		formatEvent(&b, list.Hooks[i:j])
		i = j
	}
	for _, warn := range list.Warnings {
		fmt.Fprintf(&b, "warning: %s\n", warn)
	}
	return b.String()
}

// formatEvent writes one event's links, their columns aligned.
func formatEvent(b *strings.Builder, hooks []HookInfo) {
	rows := make([][5]string, len(hooks))
	var width [5]int
	for i, h := range hooks {
		policy := "fail-open"
		if h.FailClosed {
			policy = "fail-closed"
		}
		timeout := ""
		if h.TimeoutMS > 0 {
			timeout = shortDuration(h.TimeoutMS)
		}
		if h.Kind == "permission" {
			policy, timeout = "", ""
		}
		rows[i] = [5]string{fmt.Sprint(h.Position), h.ID, h.Status, timeout, policy}
		for k, c := range rows[i] {
			width[k] = max(width[k], len(c))
		}
	}
	for i, h := range hooks {
		line := " "
		for k, c := range rows[i] {
			line += fmt.Sprintf(" %-*s", width[k], c)
		}
		b.WriteString(line)
		matcher := h.Matcher
		if h.ClaudeEvent != "" {
			matcher = strings.TrimSpace(h.ClaudeEvent + " " + matcher)
		}
		if h.Command != "" {
			matcher += ": " + h.Command
		}
		b.WriteString(strings.TrimRight("  "+matcher, " ") + "\n")
		indent := strings.Repeat(" ", width[0]+3)
		if where := cmpStr(h.File, h.Source); where != "" {
			fmt.Fprintf(b, "%s from %s\n", indent, where)
		}
		if h.Why != "" {
			fmt.Fprintf(b, "%s %s\n", indent, h.Why)
		}
	}
}

// shortDuration is ms as a person writes it: 5s, 10m, 1.5s.
func shortDuration(ms int64) string {
	switch {
	case ms%60000 == 0:
		return fmt.Sprintf("%dm", ms/60000)
	case ms%1000 == 0:
		return fmt.Sprintf("%ds", ms/1000)
	}
	return (time.Duration(ms) * time.Millisecond).String()
}

func cmpStr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
