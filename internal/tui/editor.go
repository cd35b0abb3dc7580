package tui

import (
	"os"
	"os/exec"
	"strings"

	tea "charm.land/bubbletea/v2"
)

// editorCommand is the editor ctrl+g opens: $VISUAL, else $EDITOR (a
// command line: "code --wait" works), else vi.
func editorCommand(environ []string) []string {
	for _, k := range []string{"VISUAL", "EDITOR"} {
		if f := strings.Fields(envValue(environ, k)); len(f) > 0 {
			return f
		}
	}
	return []string{"vi"}
}

// openEditor hands the input to the user's editor (ctrl+g, as in Claude
// Code and pi): the program steps aside, the editor gets the terminal,
// and what was saved becomes the input.
func (m *model) openEditor() tea.Cmd {
	f, err := os.CreateTemp("", "synaps-input-*.md")
	if err != nil {
		m.print(m.st.bad.Render("error: ") + "ctrl+g: cannot make a file for the editor: " + err.Error())
		return nil
	}
	_, werr := f.WriteString(m.input.Value())
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		os.Remove(f.Name())
		m.print(m.st.bad.Render("error: ") + "ctrl+g: " + werr.Error())
		return nil
	}
	argv := editorCommand(m.environ)
	cmd := exec.Command(argv[0], append(argv[1:], f.Name())...)
	path, editor := f.Name(), strings.Join(argv, " ")
	return tea.ExecProcess(cmd, func(err error) tea.Msg { return editedMsg{path: path, editor: editor, err: err} })
}

// edited takes what the editor saved as the input. A failed editor
// leaves the input as it was and says how to choose another.
func (m *model) edited(msg editedMsg) {
	defer os.Remove(msg.path)
	if msg.err != nil {
		m.print(m.st.bad.Render("error: ") + sanitize("ctrl+g: the editor "+msg.editor+" failed: "+msg.err.Error()+"; set $VISUAL or $EDITOR to the editor to use"))
		return
	}
	b, err := os.ReadFile(msg.path)
	if err != nil {
		m.print(m.st.bad.Render("error: ") + "ctrl+g: " + err.Error())
		return
	}
	m.input.SetValue(strings.TrimRight(string(b), "\n"))
}

// envValue looks a variable up in environ, the last setting winning.
func envValue(environ []string, k string) string {
	v := ""
	for _, kv := range environ {
		if strings.HasPrefix(kv, k+"=") {
			v = kv[len(k)+1:]
		}
	}
	return v
}
