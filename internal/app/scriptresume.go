package app

import (
	"github.com/synaps-cli/synaps/internal/llm/script"
	"github.com/synaps-cli/synaps/internal/session"
)

// A resumed session on a scripted model goes on with the script where its
// earlier runs left it, not from the first line again: what a user
// resuming a session expects, and what lets a CI script cover a session
// across several runs. The session file is the record of where: each line
// played produced one assistant answer in it (the main conversation's or
// a subagent's) after the session last switched models, and a session made
// by /compact also used one line for its summary, after the lines of the
// session it was compacted from.
// Lines whose answer was not kept (a failed expectation, a turn
// interrupted before its answer was saved) are played again.

// maxCompactions bounds how far back through compacted sessions the
// count goes (a loop of "from" ids in damaged files must end).
const maxCompactions = 64

// goOnWithScript starts the scripted model after the lines the resumed
// session used, when the session goes on with the script it recorded.
// A model named with --model is a switch, even to the same file: its
// script starts at its first line, as it always has.
func (a *App) goOnWithScript() {
	p, ok := a.provider.(*script.Provider)
	if !ok || a.opts.Model != "" || a.Session == nil || a.Session.Model() == "" || a.Model != a.recordedModel() {
		return
	}
	p.GoOnAfter(scriptLinesUsed(a.BaseDir, a.Session.ID))
}

// scriptLinesUsed counts the script lines the session id's runs on its
// current model used (session.ModelAnswers): its answers since its last
// model switch, its subagents' included, and for a compacted session the
// summary's line and the lines of the session it came from.
func scriptLinesUsed(baseDir, id string) int {
	n := 0
	for range maxCompactions {
		answers, from, err := session.ModelAnswers(baseDir, id)
		n += answers
		if err != nil || from == "" || from == id {
			return n
		}
		n++ // the summary /compact asked for
		id = from
	}
	return n
}
