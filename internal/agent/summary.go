package agent

import (
	"encoding/json"
	"strings"
	"unicode"

	"github.com/synaps-cli/synaps/internal/plural"
)

// InputSummary is a one-line description of a tool call's input for UIs:
// the command for bash, the path for read, write, edit and ls, the pattern
// (and where) for grep and find, the skill for load_skill. Other tools show
// their one string field, or else their input as compact JSON. It is safe
// to print: control characters and escape sequences are removed. max cuts
// it to that many runes (0: no cut).
func InputSummary(name string, input []byte, max int) string {
	var fields map[string]any
	if err := json.Unmarshal(input, &fields); err != nil {
		return clip(oneLine(string(input)), max)
	}
	str := func(k string) string {
		s, _ := fields[k].(string)
		return s
	}
	in := func(what, where string) string {
		if where == "" {
			return what
		}
		return what + " in " + where
	}
	var s string
	switch name {
	case "bash":
		s = str("command")
	case "read", "write", "edit":
		s = str("path")
	case "ls":
		if s = str("path"); s == "" {
			s = "."
		}
	case "grep", "find":
		s = in(str("pattern"), str("path"))
	case "load_skill":
		s = str("name")
	}
	if s == "" {
		var only []string
		for _, v := range fields {
			if sv, ok := v.(string); ok {
				only = append(only, sv)
			}
		}
		if len(only) == 1 && len(fields) == 1 {
			s = only[0]
		} else if len(fields) > 0 {
			b, _ := json.Marshal(fields) // sorted keys: stable
			s = string(b)
		}
	}
	return clip(oneLine(s), max)
}

// OutputPreview is the first lines of a tool's output, made safe to print,
// and a note of how many more there are.
func OutputPreview(out string, lines, width int) []string {
	out = strings.TrimRight(Printable(out), "\n ")
	if out == "" {
		return []string{"(no output)"}
	}
	all := strings.Split(out, "\n")
	n := min(lines, len(all))
	preview := make([]string, 0, n+1)
	for _, l := range all[:n] {
		preview = append(preview, clip(l, width))
	}
	if rest := len(all) - n; rest > 0 {
		preview = append(preview, "… "+plural.Count(rest, "more line"))
	}
	return preview
}

// Printable removes what could move the cursor or restyle a terminal from
// text that came from outside (tool output, the model): escape sequences
// and control characters other than newlines; tabs become spaces.
func Printable(s string) string {
	if !strings.ContainsFunc(s, func(r rune) bool { return r != '\n' && unicode.IsControl(r) }) {
		return s
	}
	var b strings.Builder
	// state: 0 text, 1 after ESC, 2 in CSI (until a final byte @..~),
	// 3 in OSC/DCS/APC (until BEL or ESC \).
	state := 0
	for _, r := range s {
		switch state {
		case 1:
			switch r {
			case '[':
				state = 2
			case ']', 'P', '_', '^':
				state = 3
			default:
				state = 0
			}
			continue
		case 2:
			if r >= '@' && r <= '~' {
				state = 0
			}
			continue
		case 3:
			if r == '\a' {
				state = 0
			} else if r == 0x1b {
				state = 1
			}
			continue
		}
		switch {
		case r == 0x1b:
			state = 1
		case r == '\t':
			b.WriteString("    ")
		case r == '\n':
			b.WriteRune(r)
		case unicode.IsControl(r):
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// oneLine is the first line of s, printable and with its whitespace
// collapsed; " …" marks that more lines followed.
func oneLine(s string) string {
	s = strings.TrimSpace(Printable(s))
	more := ""
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s, more = s[:i], " …"
	}
	return strings.Join(strings.Fields(s), " ") + more
}

func clip(s string, max int) string {
	if max <= 0 {
		return s
	}
	r := []rune(s)
	if len(r) <= max {
		return s
	}
	return string(r[:max-1]) + "…"
}
