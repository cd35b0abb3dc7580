package app

import "slices"

// offers reports whether the session offers the built-in tool named
// name (its runtime name: bash, read, agent, load_skill …): every one,
// unless --tools (LimitTools) picked some.
func (o Options) offers(name string) bool {
	return !o.LimitTools || slices.Contains(o.BuiltinTools, name)
}

// ClaudeSettings is one --settings value: File names it in messages (a
// path, or "--settings JSON"), Data is its JSON.
type ClaudeSettings struct {
	File string
	Data []byte
}
