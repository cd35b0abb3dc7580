package tool

import (
	"context"
	"encoding/json"
)

// Previewer is a tool that can say what it would change before it runs:
// the diff a permission question shows, so that the user approves the
// change itself, not a path (built-in edit and write). Preview reads,
// never writes; nil means it cannot tell (the input would fail, the file
// is binary or too large), and the question shows no diff.
type Previewer interface {
	Preview(ctx context.Context, input json.RawMessage) *Diff
}
