package lsp

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/synaps-cli/synaps/internal/plural"
)

// Bounds of what a report adds to a tool result: the model reads every
// byte of it, on every edit.
const (
	// MaxShown is the most errors a report lists; the rest are counted.
	MaxShown = 10
	// maxMessage is the most bytes of one error's message.
	maxMessage = 400
)

// isError reports whether d is an error (a missing severity is one, as
// editors take it).
func isError(d Diagnostic) bool {
	return d.Severity == SeverityError || d.Severity == 0
}

// key is what makes two diagnostics the same problem across an edit:
// everything but the range, which an edit above it moves.
func key(d Diagnostic) string {
	return fmt.Sprintf("%d\x00%s\x00%s\x00%s", d.Severity, d.Source, d.Code, d.Message)
}

// newErrors are the errors of after that before did not have, counted:
// a second identical error is new when before had one.
func newErrors(before, after []Diagnostic) []Diagnostic {
	had := map[string]int{}
	for _, d := range before {
		if isError(d) {
			had[key(d)]++
		}
	}
	var out []Diagnostic
	for _, d := range after {
		if !isError(d) {
			continue
		}
		k := key(d)
		if had[k] > 0 {
			had[k]--
			continue
		}
		out = append(out, d)
	}
	return out
}

// Text is what the report adds to the tool result the model reads: the
// new errors, one a line as path:line:col (1-based), at most MaxShown;
// "" when there are none.
func (r *Report) Text() string {
	if r == nil || len(r.New) == 0 {
		return ""
	}
	var b strings.Builder
	n := len(r.New)
	fmt.Fprintf(&b, "Language server %s reports %d new %s in %s", r.Server, n, plural.Pick(n, "error", "errors"), r.Path)
	if old := r.Errors - n; old > 0 {
		fmt.Fprintf(&b, " (%d more it had before)", old)
	}
	b.WriteString(":\n")
	for i, d := range r.New {
		if i == MaxShown {
			fmt.Fprintf(&b, "  … and %d more\n", n-MaxShown)
			break
		}
		fmt.Fprintf(&b, "  %s:%d:%d: %s%s\n", r.Path, d.Range.Start.Line+1, d.Range.Start.Character+1, message(d.Message), suffix(d))
	}
	return strings.TrimRight(b.String(), "\n")
}

// message is one diagnostic's message on as few lines as it has, its
// later lines indented, cut at maxMessage bytes.
func message(s string) string {
	s = strings.TrimSpace(s)
	if len(s) > maxMessage {
		cut := maxMessage
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "…"
	}
	return strings.ReplaceAll(s, "\n", "\n    ")
}

// suffix names the diagnostic's source and code: " (Pyright
// reportAssignmentType)".
func suffix(d Diagnostic) string {
	code := strings.Trim(string(d.Code), `"`)
	parts := make([]string, 0, 2)
	if d.Source != "" {
		parts = append(parts, d.Source)
	}
	if code != "" && code != "null" {
		parts = append(parts, code)
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, " ") + ")"
}
