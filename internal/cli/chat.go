package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/synaps-cli/synaps/internal/agent"
	"github.com/synaps-cli/synaps/internal/app"
	"github.com/synaps-cli/synaps/internal/host"
)

func newChatCmd(g *globals, stdio Stdio) *cobra.Command {
	return &cobra.Command{
		Use:   "chat",
		Short: "Line-oriented session on stdin/stdout, for pipes and scripts",
		Long: `chat reads one message per line from stdin and prints the answer, tool
calls and their results as plain text. Lines starting with / are slash
commands (/help lists them). It ends at end of input or /quit. Ctrl-C
(SIGINT) during a turn cancels that turn, and the session goes on with the
next line; between turns it ends chat (exit 130).

Confirm requests from extensions are asked on the terminal; with piped
input there is nobody to ask, so they are refused unless
--auto-approve-confirms is given.`,
		Args: noArgsButID,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runChat(cmd.Context(), g, stdio)
		},
	}
}

func runChat(ctx context.Context, g *globals, stdio Stdio) error {
	lines := readLines(stdio.In)
	opts, err := g.appOptions()
	if err != nil {
		return err
	}
	r := &renderer{out: stdio.Out, color: colorOn(stdio.Out), fullErrors: !isTerminal(stdio.Out), notices: stdio.Err, noticeColor: colorOn(stdio.Err)}
	opts.OnEvent = r.event
	opts.LeavePlan = "/mode default"
	if opts.Confirmer == nil && isTerminal(stdio.In) {
		opts.Confirmer = &lineConfirmer{out: stdio.Out, r: r, next: func() (string, bool) {
			line, ok := <-lines.ch
			return line, ok
		}}
	}
	// A background hook that wakes the model while chat waits for a line
	// (Claude's asyncRewake) is sent as a message, as a line would be.
	wakes := make(chan string, 16)
	opts.OnWake = func(text string) {
		select {
		case wakes <- text:
		default:
			go func() { wakes <- text }()
		}
	}
	// The session lives in a host, as every front-end's does; chat is
	// its one client and prints the events as they come (OnEvent).
	h := host.New()
	s, err := h.Open(ctx, opts)
	if err != nil {
		return err
	}
	a := s.App()
	a.OnEnding = func(msg string) { fmt.Fprintln(stdio.Out, "ℹ "+msg) }
	defer h.Close(context.WithoutCancel(ctx))
	// Notes go to stderr, as in -p and rpc: stdout is the conversation.
	for _, n := range a.Notes {
		fmt.Fprintln(stdio.Err, "ℹ "+n)
	}
	a.WaitMCP(ctx)
	var failed bool
	for {
		var line string
		woken := false
		select {
		case l, ok := <-lines.ch:
			if !ok {
				if failed {
					return exitError{code: ExitError}
				}
				return lines.err
			}
			line = strings.TrimSpace(l)
		case text := <-wakes:
			line, woken = text, true
		case <-ctx.Done():
			return ctx.Err()
		}
		if line == "" {
			continue
		}
		var command *app.CommandPrompt
		if app.IsSlash(line) && !woken {
			res, err := s.Slash(ctx, line)
			if err != nil {
				fmt.Fprintln(stdio.Out, "error:", err)
				continue
			}
			if res.Output != "" {
				fmt.Fprint(stdio.Out, strings.TrimRight(res.Output, "\n")+"\n")
			}
			if res.Quit {
				return nil
			}
			if res.Command == nil {
				continue
			}
			command = res.Command
		}
		// Ctrl-C cancels the turn, not the session.
		turnCtx, release := claimInterrupt(ctx)
		var err error
		if command != nil {
			err = s.Run(turnCtx, host.Input{Command: command}) // a Markdown command's prompt
		} else {
			err = s.Run(turnCtx, host.Input{Text: line})
		}
		release()
		r.endText()
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			switch {
			case errors.Is(err, agent.ErrLimit):
				// The user's own limit, not a failure: the next line
				// goes on from here.
				fmt.Fprintf(stdio.Out, "ℹ %v; send another message to go on\n", err)
			case !errors.Is(err, context.Canceled):
				fmt.Fprintln(stdio.Out, "error:", err)
				failed = true
			}
		}
	}
}

// inputLines is stdin read a line at a time on a goroutine of its own, so
// that chat stops waiting for input when Ctrl-C cancels it.
type inputLines struct {
	ch  chan string // closed at the end of input
	err error       // why input ended (nil at EOF); written before ch is closed
}

func readLines(r io.Reader) *inputLines {
	l := &inputLines{ch: make(chan string)}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 4<<20)
	go func() {
		for sc.Scan() {
			l.ch <- sc.Text()
		}
		l.err = sc.Err()
		close(l.ch)
	}()
	return l
}
