package cli

import (
	"io"
	"strings"

	"github.com/synaps-cli/synaps/internal/agent"
)

// Text stored by others — a session's messages and tool output, a
// marketplace's entries — can hold terminal escape sequences (an OSC
// that retitles the terminal, a CSI that clears it). What the commands
// print of it goes through agent.Printable, the TUI's sanitiser, so
// `sessions show` or `marketplace list` cannot drive the terminal.

// printableWriter passes every write through agent.Printable. Each
// fmt.Fprint* is one write, so a sequence is never split across two.
type printableWriter struct{ w io.Writer }

func (p printableWriter) Write(b []byte) (int, error) {
	if _, err := io.WriteString(p.w, agent.Printable(string(b))); err != nil {
		return 0, err
	}
	return len(b), nil
}

// printableLine is s for one line of a listing: printable, its line
// breaks turned into spaces.
func printableLine(s string) string {
	return strings.ReplaceAll(agent.Printable(s), "\n", " ")
}
