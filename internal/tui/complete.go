package tui

import (
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/synaps-cli/synaps/internal/app"
)

// candidate is one completion of a slash command.
type candidate struct {
	// Text is what tab inserts: the command up to its first argument
	// placeholder, with a trailing space when an argument follows
	// ("/extensions enable "), or a full command with a plugin id.
	Text string
	// Name is the command as help shows it ("/extensions enable ID").
	Name string
	Help string
	// ID: the candidate names a plugin ("/extensions enable guard"); it
	// is listed only once its command is typed out.
	ID bool
}

// takesArg reports whether the candidate expects more after its text.
func (c candidate) takesArg() bool { return strings.HasSuffix(c.Text, " ") }

// slashCandidates turns the app's command list into completions, adding
// "/extensions enable|disable ID" for each known plugin id.
func slashCandidates(cmds []struct{ Name, Help string }, ids []string) []candidate {
	out := make([]candidate, 0, len(cmds)+2*len(ids))
	for _, c := range cmds {
		var lit []string
		hasArg := false
		for _, w := range strings.Fields(c.Name) {
			if isPlaceholder(w) {
				hasArg = true
				break
			}
			lit = append(lit, w)
		}
		text := strings.Join(lit, " ")
		if hasArg {
			text += " "
		}
		out = append(out, candidate{Text: text, Name: c.Name, Help: c.Help})
		if strings.HasPrefix(text, "/extensions ") && strings.HasSuffix(c.Name, " ID") {
			for _, id := range ids {
				out = append(out, candidate{Text: text + id, Name: text + id, Help: c.Help, ID: true})
			}
		}
	}
	return out
}

// isPlaceholder: ID, NAME, [NAME] are arguments in a command's help name.
func isPlaceholder(w string) bool {
	if strings.HasPrefix(w, "[") || strings.HasPrefix(w, "<") {
		return true
	}
	return w == strings.ToUpper(w) && strings.ToUpper(w) != strings.ToLower(w)
}

// slashMatches are the commands to list under the input while it holds a
// slash command: those that complete it, or the one whose argument is
// being typed. Plugin-id candidates show only once their command is typed.
func slashMatches(input string, cands []candidate) []candidate {
	if !strings.HasPrefix(input, "/") || strings.Contains(input, "\n") {
		return nil
	}
	var out []candidate
	for _, c := range cands {
		switch {
		case strings.HasPrefix(c.Text, input):
			if c.ID && !strings.HasPrefix(input, idPrefix(c)) {
				continue
			}
			out = append(out, c)
		case c.takesArg() && strings.HasPrefix(input, c.Text):
			out = append(out, c)
		}
	}
	return out
}

// idPrefix is "/extensions enable " for an id candidate.
func idPrefix(c candidate) string {
	return c.Text[:strings.LastIndexByte(c.Text, ' ')+1]
}

// completeSlash is what tab makes of input: the one completing command,
// or the longest prefix the completing commands share. It returns input
// unchanged when nothing completes it further.
func completeSlash(input string, cands []candidate) string {
	if !strings.HasPrefix(input, "/") || strings.Contains(input, "\n") {
		return input
	}
	var texts []string
	for _, c := range cands {
		if strings.HasPrefix(c.Text, input) {
			texts = append(texts, c.Text)
		}
	}
	if len(texts) == 0 {
		return input
	}
	p := texts[0]
	for _, t := range texts[1:] {
		for !strings.HasPrefix(t, p) {
			p = p[:len(p)-1]
		}
	}
	for !utf8.ValidString(p) {
		p = p[:len(p)-1]
	}
	if len(p) < len(input) {
		return input
	}
	return p
}

// defaultCandidates are the app's slash commands.
func defaultCandidates(st state) []candidate {
	return slashCandidates(append(slices.Clone(app.SlashCommands), st.commands...), st.ids)
}
