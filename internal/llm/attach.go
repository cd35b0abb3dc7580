package llm

import "strings"

// TakesDocuments reports whether a model reads PDFs sent in a message:
// Anthropic's Claude 3.5 and later, OpenAI's GPT-4o, GPT-4.1, GPT-5 and
// o-series. A model not known to is refused a PDF before the request,
// naming the file, rather than answering with an API error.
func TakesDocuments(model string) bool {
	id := ModelID(model)
	for _, p := range []string{"claude-3-5", "claude-3-7", "claude-sonnet-4", "claude-opus-4", "claude-haiku-4", "claude-4",
		"gpt-4o", "gpt-4.1", "gpt-5", "o1", "o3", "o4"} {
		if strings.HasPrefix(id, p) {
			return true
		}
	}
	return false
}
