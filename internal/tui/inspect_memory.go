package tui

import (
	"os/exec"
	"strings"

	tea "charm.land/bubbletea/v2"
)

// memoryEditedMsg: the editor /memory edit opened has exited.
type memoryEditedMsg struct {
	path, editor string
	err          error
}

// openMemory opens an instructions file (/memory edit user|project) in
// the user's editor, as ctrl+g opens the input: the program steps aside
// and the editor gets the terminal. The file is edited in place; the
// next session's prompt reads it.
func (m *model) openMemory(path string) tea.Cmd {
	argv := editorCommand(m.environ)
	cmd := exec.Command(argv[0], append(argv[1:], path)...)
	editor := strings.Join(argv, " ")
	return tea.ExecProcess(cmd, func(err error) tea.Msg { return memoryEditedMsg{path: path, editor: editor, err: err} })
}

// memoryEdited says how the editing went.
func (m *model) memoryEdited(msg memoryEditedMsg) {
	if msg.err != nil {
		m.print(m.st.bad.Render("error: ") + sanitize("/memory edit: the editor "+msg.editor+" failed: "+msg.err.Error()+"; set $VISUAL or $EDITOR to the editor to use"))
		return
	}
	m.print(m.st.dim.Render(sanitize("· " + msg.path + " saved; new sessions read it")))
}
