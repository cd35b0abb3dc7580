package claude

import (
	"fmt"
	"os/exec"
	"strings"
)

// argv is the program and arguments a Command runs: its Line through the
// shell (bash when there is one, else sh; pwsh for "powershell"), or, in
// the exec form (Args set, Claude Code's `args`), Line itself with Args
// and no shell — ${CLAUDE_PLUGIN_ROOT}, ${CLAUDE_PLUGIN_DATA} and
// ${CLAUDE_PROJECT_DIR} replaced in each element as plain text, so a path
// with quotes, $ or backticks never reaches a shell parser.
func (c Command) argv() (string, []string, error) {
	if c.Args != nil {
		vars := map[string]string{}
		for _, kv := range c.Env {
			k, v, _ := strings.Cut(kv, "=")
			switch k {
			case "CLAUDE_PLUGIN_ROOT", "CLAUDE_PLUGIN_DATA", "CLAUDE_PROJECT_DIR":
				vars[k] = v
			}
		}
		subst := func(s string) string {
			for k, v := range vars {
				s = strings.ReplaceAll(s, "${"+k+"}", v)
			}
			return s
		}
		prog := subst(c.Line)
		args := make([]string, len(c.Args))
		for i, a := range c.Args {
			args[i] = subst(a)
		}
		if !strings.Contains(prog, "/") {
			p, err := exec.LookPath(prog)
			if err != nil {
				return "", nil, fmt.Errorf("%q (the exec form runs \"command\" as a program, with \"args\", no shell): %v", prog, err)
			}
			prog = p
		}
		return prog, args, nil
	}
	if c.Shell == "powershell" {
		p, err := exec.LookPath("pwsh")
		if err != nil {
			return "", nil, fmt.Errorf("shell \"powershell\" needs pwsh on PATH: %v", err)
		}
		return p, []string{"-NoProfile", "-NonInteractive", "-Command", c.Line}, nil
	}
	if p, err := exec.LookPath("bash"); err == nil {
		return p, []string{"-c", c.Line}, nil
	}
	return "sh", []string{"-c", c.Line}, nil
}
