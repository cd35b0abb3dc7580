package tui

import (
	"path/filepath"

	"github.com/synaps-cli/synaps/internal/llm"
)

// pendingNames names attached files for a refusal: PDFs attached with
// /attach have no name left but their kind.
func (m *model) pendingNames(images []llm.Image) []attachment {
	out := make([]attachment, len(images))
	for i := range images {
		out[i] = attachment{name: "an attached file", im: &images[i]}
	}
	return out
}

// attach is /attach PATH: the file goes with the next message, as an
// @mention would take it.
func (m *model) attach(path string) {
	abs := expandHome(path)
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(m.app.WorkDir, abs)
	}
	im, file, note := attachFile(path, abs, m.app.WorkDir, m.denyRead())
	switch {
	case im != nil:
		m.attached = append(m.attached, *im)
		m.print(m.st.dim.Render("· " + sanitize(note) + "; it goes with your next message"))
	case file != "":
		m.print(m.st.dim.Render("· " + path + " is text: mention it as @" + path + " in your message to attach it"))
	default:
		m.print(m.st.bad.Render("error: ") + sanitize(note))
	}
}

// denyRead is the session's Read deny rules as attachFile takes them (nil
// without a policy).
func (m *model) denyRead() func(string) string {
	if m.app.Permissions == nil {
		return nil
	}
	return m.app.Permissions.DenyRead
}
