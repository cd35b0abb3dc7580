package tui

import (
	"bytes"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/colorprofile"
)

// styles are the few looks the transcript uses. They use the 16 basic
// colours, so every terminal theme keeps them readable, and they degrade
// to plain text: the view goes through Bubble Tea's renderer and printed
// lines through downsample, both with the detected colour profile, which
// honours NO_COLOR (colours off, bold and faint kept).
type styles struct {
	user   lipgloss.Style // the user's messages
	dim    lipgloss.Style // secondary text: durations, notices, the status line
	ok     lipgloss.Style // a call that succeeded
	bad    lipgloss.Style // errors, blocks
	warn   lipgloss.Style // modify/replace marks, prompts
	tool   lipgloss.Style // tool names
	accent lipgloss.Style // the spinner, the input prompt
}

func newStyles() styles {
	return styles{
		user:   lipgloss.NewStyle().Bold(true),
		dim:    lipgloss.NewStyle().Faint(true),
		ok:     lipgloss.NewStyle().Foreground(lipgloss.Green),
		bad:    lipgloss.NewStyle().Foreground(lipgloss.Red),
		warn:   lipgloss.NewStyle().Foreground(lipgloss.Yellow),
		tool:   lipgloss.NewStyle().Bold(true).Foreground(lipgloss.Cyan),
		accent: lipgloss.NewStyle().Foreground(lipgloss.Magenta),
	}
}

// downsample rewrites the colours in s for profile p: fewer colours, or
// none for NO_COLOR and for output that is not a terminal.
func downsample(p colorprofile.Profile, s string) string {
	if p == colorprofile.TrueColor {
		return s
	}
	var buf bytes.Buffer
	w := colorprofile.Writer{Forward: &buf, Profile: p}
	_, _ = w.WriteString(s)
	return buf.String()
}
