package cli

import (
	"fmt"
	"os"
	"strings"

	"github.com/charmbracelet/x/term"

	"github.com/synaps-cli/synaps/internal/app"
	"github.com/synaps-cli/synaps/internal/config"
	"github.com/synaps-cli/synaps/internal/plugin"
)

// askOptions asks, on a terminal, for each of p's userConfig options
// that has no value (no --config, no earlier setting, no default), as
// Claude Code asks when a plugin is enabled. An empty answer leaves it
// unset (a required one then gets the usual warning); a value the option
// refuses is said and asked again, three times at most. A sensitive
// value is read without echo. Without a terminal nothing is asked.
func askOptions(stdio Stdio, base string, cfg *config.File, p *plugin.Plugin) {
	in, ok := stdio.In.(*os.File)
	if !ok || !term.IsTerminal(in.Fd()) {
		return
	}
	for _, v := range app.UserOptions(base, cfg, p) {
		if v.From != "" {
			continue
		}
		o := v.Option
		label := o.Key
		if o.Title != "" {
			label = o.Title + " (" + o.Key + ")"
		}
		kind := o.Type
		if o.Sensitive {
			kind += ", sensitive, not echoed"
		}
		if o.Required {
			kind += ", required"
		}
		if o.Description != "" {
			fmt.Fprintf(stdio.Out, "%s: %s\n", o.Key, o.Description)
		}
		for range 3 {
			fmt.Fprintf(stdio.Out, "%s [%s; Enter leaves it unset]: ", label, kind)
			answer, err := readAnswer(in, o.Sensitive)
			if o.Sensitive {
				fmt.Fprintln(stdio.Out)
			}
			if err != nil {
				return // input closed: the warnings follow
			}
			if answer = strings.TrimSpace(answer); answer == "" {
				break
			}
			where, err := app.SetUserOption(base, p, o.Key, answer)
			if err != nil {
				fmt.Fprintln(stdio.Err, err)
				continue
			}
			fmt.Fprintf(stdio.Out, "set %s in %s\n", o.Key, where)
			break
		}
	}
}

// readAnswer reads one line from the terminal a byte at a time (a
// buffered reader would take the next answers with it), or without echo.
func readAnswer(in *os.File, hidden bool) (string, error) {
	if hidden {
		b, err := term.ReadPassword(in.Fd())
		return string(b), err
	}
	var line []byte
	buf := make([]byte, 1)
	for {
		n, err := in.Read(buf)
		if n == 1 {
			if buf[0] == '\n' {
				return string(line), nil
			}
			line = append(line, buf[0])
		}
		if err != nil {
			if len(line) > 0 {
				return string(line), nil
			}
			return "", err
		}
	}
}
