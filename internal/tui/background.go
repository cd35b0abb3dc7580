package tui

// ctrl+b, as in Claude Code: the bash commands the turn is running go to
// the background (builtin.Backgrounder). Each call returns at once with
// a result that tells the model the shell's id and the file its output
// goes to; the command runs on, and so does the turn.

// backgroundBash sends the running bash calls to the background and says
// so; false when none runs (ctrl+b then moves the cursor, as in the
// input's emacs keys).
func (m *model) backgroundBash() bool {
	if m.busy == "" || m.asking != promptNone || m.bg.Running() == 0 {
		return false
	}
	n := m.bg.Background()
	what := "the bash command runs"
	if n > 1 {
		what = "the bash commands run"
	}
	m.print(m.st.dim.Render("· " + what + " on in the background; the model was told where its output goes"))
	return true
}
