package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/synaps-cli/synaps/internal/agent"
)

// `synaps replay SESSION…`: every tool call of recorded sessions through
// today's chain, rules and mode, the tools never run; the calls whose
// verdict or rewrite changed are printed as a diff, and the exit code is
// 1 when any did — a policy change checked in CI against a folder of
// recorded sessions.

// replayChange is one call decided differently today.
type replayChange struct {
	ToolUseID string            `json:"tool_use_id"`
	Tool      string            `json:"tool"`
	Agent     string            `json:"agent,omitempty"`
	Input     json.RawMessage   `json:"input"`
	Was       outcome           `json:"was"`
	Now       *agent.CallReport `json:"now"`
}

// replayed is one session's replay.
type replayed struct {
	Session string         `json:"session"`
	Calls   int            `json:"calls"`
	Changed []replayChange `json:"changed"`
}

func newReplayCmd(g *globals, stdio Stdio) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "replay SESSION|FILE|DIR...",
		Short: "Put a recorded session's tool calls through today's hooks, rules and mode, and show what changed",
		Long: `Put every tool call of one or more recorded sessions (ids, or session
files) through today's hook chain, permission rules and mode in this
directory — tools never run, nobody is asked; the extensions and hooks do
run — and print the calls whose verdict or rewrite changed:

  call toolu_… bash {"command":"rm -rf build"}
    was: allowed
    now: blocked by ext:policy-guard/before_tool_call: no rm -rf

Sessions of -p, the terminal UI, chat, acp and rpc replay alike, their
subagents' calls included. A session recorded before synaps kept call
reports replays too: what was decided is read from each call's result.

Exit codes: 0 nothing changed, 1 some call is decided differently, 2
usage error.`,
		Example: `  synaps replay 20261204-153000-k3f9
  synaps replay ~/.synaps-cli/sessions/*.jsonl --json`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			base, err := baseDir()
			if err != nil {
				return err
			}
			type loaded struct {
				id    string
				calls []recordedCall
			}
			var sessions []loaded
			files, err := sessionArgs(args)
			if err != nil {
				return err
			}
			for _, arg := range files {
				id, calls, err := openRecorded(base, arg)
				if err != nil {
					return err
				}
				sessions = append(sessions, loaded{id, calls})
			}
			a, err := openJudge(cmd.Context(), g, stdio)
			if err != nil {
				return err
			}
			defer closeJudge(a)
			var out []replayed
			changed := false
			for _, s := range sessions {
				r := replayed{Session: s.id, Calls: len(s.calls), Changed: []replayChange{}}
				for _, c := range s.calls {
					now := a.Judge(cmd.Context(), c.Tool, c.Input, c.Sub)
					now.ToolUseID = c.ID
					was := c.was()
					if !differs(was, outcomeOf(now)) {
						continue
					}
					ch := replayChange{ToolUseID: c.ID, Tool: c.Tool, Input: c.Input, Was: was, Now: now}
					if c.Sub != nil {
						ch.Agent = c.Sub.ID
					}
					r.Changed = append(r.Changed, ch)
				}
				changed = changed || len(r.Changed) > 0
				out = append(out, r)
			}
			if asJSON {
				enc := json.NewEncoder(stdio.Out)
				enc.SetIndent("", "  ")
				if err := enc.Encode(out); err != nil {
					return err
				}
			} else {
				writeReplay(stdio, out)
			}
			if changed {
				return exitError{code: 1}
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the changed calls as JSON, each with its whole report of today")
	return cmd
}

// sessionArgs expands the directories among args into their session
// files (*.jsonl), so CI can replay a folder of recorded sessions.
func sessionArgs(args []string) ([]string, error) {
	var out []string
	for _, arg := range args {
		st, err := os.Stat(arg)
		if err != nil || !st.IsDir() {
			out = append(out, arg)
			continue
		}
		files, err := filepath.Glob(filepath.Join(arg, "*.jsonl"))
		if err != nil {
			return nil, err
		}
		if len(files) == 0 {
			return nil, usageError{fmt.Errorf("replay %s: the directory holds no session files (*.jsonl)", arg)}
		}
		out = append(out, files...)
	}
	return out, nil
}

// differs reports whether today's outcome of a call is not what was
// decided: another verdict, another blocker (when both were recorded:
// ids are comparable only then), or another rewrite.
func differs(was, now outcome) bool {
	if was.Verdict != now.Verdict {
		return true
	}
	if !was.Recorded {
		return false
	}
	if was.Verdict == agent.VerdictBlock && was.By != now.By && !fileIDOf(was.By, now.By) {
		return true
	}
	if was.noInputs {
		return false
	}
	return !bytes.Equal(compactBytes(was.Final), compactBytes(now.Final))
}

// fileIDOf reports whether was, a Claude hooks file's id as sessions
// recorded it before each hook had its own ("claude:claude-project/
// PreToolUse"), names the file of hook id now: the same blocker.
func fileIDOf(was, now string) bool {
	return strings.HasPrefix(was, "claude:") && strings.Count(was, "/") == 1 && agent.GuardNames(now, was)
}

func compactBytes(raw json.RawMessage) []byte {
	if raw == nil {
		return nil
	}
	var buf bytes.Buffer
	if json.Compact(&buf, raw) != nil {
		return raw
	}
	return buf.Bytes()
}

func writeReplay(stdio Stdio, out []replayed) {
	for _, r := range out {
		if len(r.Changed) == 0 {
			fmt.Fprintf(stdio.Out, "session %s: all %d calls are decided as they were\n", r.Session, r.Calls)
			continue
		}
		fmt.Fprintf(stdio.Out, "session %s: %d of %d calls are decided differently\n", r.Session, len(r.Changed), r.Calls)
		for _, c := range r.Changed {
			who := c.Tool
			if c.Agent != "" {
				who += " (subagent " + c.Agent + ")"
			}
			fmt.Fprintf(stdio.Out, "call %s %s %s\n", c.ToolUseID, who, compactJSON(c.Input))
			fmt.Fprintf(stdio.Out, "  was: %s\n", c.Was.describe())
			fmt.Fprintf(stdio.Out, "  now: %s\n", outcomeOf(c.Now).describe())
			if c.Was.Recorded && !c.Was.noInputs && !bytes.Equal(compactBytes(c.Was.Final), compactBytes(c.Now.Final)) {
				fmt.Fprintln(stdio.Out, "  rewrite:")
				was, now := c.Was.Final, c.Now.Final
				if was == nil {
					was = c.Input
				}
				if now == nil {
					now = c.Input
				}
				for _, line := range inputDiff(was, now) {
					fmt.Fprintf(stdio.Out, "    %s\n", line)
				}
			}
		}
	}
}
