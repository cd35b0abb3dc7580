package app

import (
	"fmt"
	"slices"

	"github.com/synaps-cli/synaps/internal/agent"
	"github.com/synaps-cli/synaps/internal/skill"
)

// reloadSkillsFromHook looks for skills again after a Claude SessionStart
// hook answered reloadSkills (it may have installed some): load_skill
// offers every skill found, and the text returned lists the new ones for
// the system prompt, beside the start's other context (the system
// prompt's own list was written before the hooks ran). A skill that is
// gone stays listed there, and load_skill says it is no more.
func (a *App) reloadSkillsFromHook() string {
	before := map[string]bool{}
	for _, s := range a.Skills {
		before[s.Name] = true
	}
	notes := len(a.Notes)
	skills := a.findSkills()
	for _, n := range a.Notes[notes:] {
		a.notice(n)
	}
	a.Notes = a.Notes[:notes]
	a.Skills = skills
	if len(skills) > 0 {
		if _, err := a.Tools.Swap(&skill.LoadTool{Skills: skills}); err != nil {
			a.notice(fmt.Sprintf("skills not reloaded: %v", err))
			return ""
		}
	}
	added := slices.DeleteFunc(slices.Clone(skills), func(s skill.Skill) bool { return before[s.Name] })
	if len(added) == 0 {
		return ""
	}
	return "Skills found after the session started (a SessionStart hook installed them):\n" + skill.Index(added)
}

func (a *App) notice(text string) {
	if a.opts.OnEvent != nil {
		a.opts.OnEvent(agent.Event{Type: agent.EventNotice, Text: text})
	}
}
