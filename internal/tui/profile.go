package tui

import (
	"io"
	"os"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/colorprofile"
)

// terminalProfile is out's colour profile under environ. lipgloss's
// package init has already asked that question of os.Stdout under the
// process's environment (lipgloss.Writer): inside tmux, colorprofile
// answers it by running `tmux info`, a fork and exec of 10–20 ms, and
// asking again ran it a second time before the UI's first frame. The
// init's answer stands when the question is the same: out is the
// process's stdout and the session's environment overrides none of the
// variables the profile reads (overridden).
func terminalProfile(out io.Writer, environ []string, overridden bool) colorprofile.Profile {
	if f, ok := out.(*os.File); ok && f == os.Stdout && !overridden && lipgloss.Writer != nil {
		return lipgloss.Writer.Profile
	}
	return colorprofile.Detect(out, environ)
}
