package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/charmbracelet/x/term"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/synaps-cli/synaps/internal/config"
	"github.com/synaps-cli/synaps/internal/daemon"
	"github.com/synaps-cli/synaps/internal/plural"
	"github.com/synaps-cli/synaps/internal/session"
)

// The session daemon's front-ends: synaps --detachable, synaps attach,
// synaps send and synaps daemon (docs/daemon.md).

// detachable reports whether the interactive UI should run in the
// daemon: --detachable, or config detachable = true; never inside the
// daemon itself.
func detachable(g *globals, base string) (bool, error) {
	if os.Getenv(daemon.LinkEnv) != "" {
		return false, nil
	}
	if g.detachable {
		return true, nil
	}
	cfg, err := config.Load(filepath.Join(base, "config"))
	if err != nil || cfg == nil {
		return false, nil
	}
	v, ok := cfg.Get(config.KeyDetachable)
	if !ok {
		return false, nil
	}
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "true", "yes", "on", "1":
		return true, nil
	case "false", "no", "off", "0", "":
		return false, nil
	}
	return false, usageError{fmt.Errorf("%s: %s = %q: give true or false; fix or remove the line", cfg.Path, config.KeyDetachable, v)}
}

// uiArgs are the flags of this command line a session UI in the daemon
// is started with: every flag given but --detachable, and the session to
// resume when an argument named it (synaps sessions resume ID).
func uiArgs(cmd *cobra.Command, g *globals) []string {
	var out []string
	if f := cmd.Flags().Lookup("resume"); g.resume != "" && (f == nil || !f.Changed) {
		out = append(out, "--resume="+g.resume)
	}
	visit := func(f *pflag.Flag) {
		if !f.Changed || f.Name == "detachable" {
			return
		}
		if sv, ok := f.Value.(pflag.SliceValue); ok {
			for _, v := range sv.GetSlice() {
				out = append(out, "--"+f.Name+"="+v)
			}
			return
		}
		out = append(out, "--"+f.Name+"="+f.Value.String())
	}
	cmd.Flags().VisitAll(visit)
	return out
}

// runDetachable starts a session UI in the daemon (starting the daemon
// when none runs) and relays this terminal to it.
func runDetachable(ctx context.Context, cmd *cobra.Command, g *globals, base string, stdio Stdio) error {
	cwd, err := os.Getwd()
	if err != nil {
		return err
	}
	exe, err := selfExe()
	if err != nil {
		return err
	}
	cl, err := ensureDaemon(base, exe, stdio)
	if err != nil {
		return err
	}
	cols, rows := termSize(stdio.Out)
	a, err := cl.NewSession(exe, uiArgs(cmd, g), cwd, os.Environ(), cols, rows)
	if err != nil {
		return err
	}
	return relay(ctx, base, a, stdio)
}

// selfExe is the path this synaps runs as, for the daemon and its
// sessions to run the same: argv[0] as invoked (resolved on $PATH), so a
// multi-call binary (the tests' re-run test binary) is run under the same
// name; else the executable.
func selfExe() (string, error) {
	if p, err := exec.LookPath(os.Args[0]); err == nil {
		if abs, err := filepath.Abs(p); err == nil {
			return abs, nil
		}
	}
	return os.Executable()
}

// ensureDaemon connects to the daemon, starting it when none runs.
func ensureDaemon(base, exe string, stdio Stdio) (*daemon.Client, error) {
	cl, started, err := daemon.Ensure(base, exe)
	if err != nil {
		return nil, err
	}
	if started {
		fmt.Fprintln(stdio.Err, "started the synaps daemon; `synaps daemon stop` ends it")
	}
	return cl, nil
}

func termSize(out io.Writer) (cols, rows int) {
	if f, ok := out.(*os.File); ok {
		if w, h, err := term.GetSize(f.Fd()); err == nil {
			return w, h
		}
	}
	return 80, 24
}

// relay puts the terminal in raw mode and relays it to the attachment
// until the user detaches or the session ends; then it says how to come
// back.
func relay(ctx context.Context, base string, a *daemon.Attachment, stdio Stdio) error {
	in, ok := stdio.In.(*os.File)
	if !ok || !term.IsTerminal(in.Fd()) {
		a.Close()
		return usageError{errors.New("attaching needs a terminal")}
	}
	state, err := term.MakeRaw(in.Fd())
	if err != nil {
		a.Close()
		return err
	}
	winch := make(chan os.Signal, 1)
	notifyResize(winch)
	defer func() { signal.Stop(winch); close(winch) }()
	go func() {
		for range winch {
			a.Resize(termSize(stdio.Out))
		}
	}()
	go func() {
		<-ctx.Done()
		a.Close()
	}()
	reason, err := a.Relay(in, stdio.Out)
	term.Restore(in.Fd(), state)
	// The UI's last frame is still on the screen, the cursor somewhere
	// in it: start the next words on a clean line, or they mix with what
	// the status line said (a session id read "…-2sy5e").
	if f, ok := stdio.Err.(*os.File); ok && term.IsTerminal(f.Fd()) {
		fmt.Fprint(f, "\r\x1b[J")
	}
	if err != nil && ctx.Err() == nil {
		return err
	}
	// Ended from outside (SIGTERM): this client detached.
	id := a.Session
	if id == "" {
		id = sessionOf(base, a.Handle)
	}
	if why, ok := strings.CutPrefix(reason, "ended"); ok {
		// "ended: its synaps exited": one colon, after "ended".
		fmt.Fprintf(stdio.Err, "the session %s ended%s\n", id, why)
		return nil
	}
	fmt.Fprintf(stdio.Err, "detached; the session goes on in the daemon: synaps attach %s\n", id)
	return nil
}

// sessionOf is the session id of a daemon session's handle, or the handle.
func sessionOf(base, handle string) string {
	cl, err := daemon.Dial(base)
	if err != nil {
		return handle
	}
	list, err := cl.Sessions()
	if err != nil {
		return handle
	}
	for _, s := range list {
		if s.Handle == handle && s.ID != "" {
			return s.ID
		}
	}
	return handle
}

func newAttachCmd(stdio Stdio) *cobra.Command {
	var observe, takeover bool
	cmd := &cobra.Command{
		Use:   "attach [ID]",
		Short: "Attach this terminal to a session in the daemon (one owns the input, others observe)",
		Long: `Attach this terminal to a session the daemon runs: what it printed so far
is replayed, then it streams live. The first client owns the input; later
ones observe (--observe always does, --takeover takes the input over).
Quitting detaches: the session and its turn go on.

Without ID: the one session the daemon runs; with several, name one. A
saved session that no daemon runs is resumed in the daemon (a new daemon
is started when none runs, e.g. after it was killed).`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if observe && takeover {
				return usageError{errors.New("--observe and --takeover: give one")}
			}
			mode := ""
			if observe {
				mode = daemon.ModeObserve
			}
			if takeover {
				mode = daemon.ModeTakeover
			}
			name := ""
			if len(args) == 1 {
				name = args[0]
			}
			return runAttach(cmd.Context(), name, mode, sessionFlags(cmd), stdio)
		},
	}
	cmd.Flags().BoolVar(&observe, "observe", false, "watch without typing (ctrl+c, ctrl+d or q leaves)")
	cmd.Flags().BoolVar(&takeover, "takeover", false, "own the input even when another client does (it then observes)")
	return cmd
}

// sessionFlags are the session flags given to attach (--model …): they
// apply to a session it starts, as to synaps --detachable.
func sessionFlags(cmd *cobra.Command) []string {
	var out []string
	cmd.Flags().Visit(func(f *pflag.Flag) {
		if f.Name == "observe" || f.Name == "takeover" {
			return // attach's own
		}
		if sv, ok := f.Value.(pflag.SliceValue); ok {
			for _, v := range sv.GetSlice() {
				out = append(out, "--"+f.Name+"="+v)
			}
			return
		}
		out = append(out, "--"+f.Name+"="+f.Value.String())
	})
	return out
}

func runAttach(ctx context.Context, name, mode string, flags []string, stdio Stdio) error {
	if name != "" {
		// The name may become a file name (the saved session's).
		if err := session.CheckID(name); err != nil {
			return usageError{fmt.Errorf("attach: %w", err)}
		}
	}
	if !isTerminal(stdio.In) || !isTerminal(stdio.Out) {
		return usageError{errors.New("attaching needs a terminal (synaps send ID TEXT reaches a session without one)")}
	}
	base, err := baseDir()
	if err != nil {
		return err
	}
	exe, err := selfExe()
	if err != nil {
		return err
	}
	if name != "" {
		// No daemon, and no saved session of that id: nothing to attach
		// to, and no reason to start a daemon that would idle.
		if cl, err := daemon.Dial(base); err != nil {
			if _, err := os.Stat(filepath.Join(session.Dir(base), name+".jsonl")); err != nil {
				return fmt.Errorf("no session %s: no synaps daemon runs and no saved session has that id; `synaps sessions list` shows the saved ones", name)
			}
		} else {
			cl.Close()
		}
	}
	cl, err := ensureDaemon(base, exe, stdio)
	if err != nil {
		return err
	}
	live, err := cl.Sessions()
	if err != nil {
		return err
	}
	running := name == "" && len(live) > 0
	for _, s := range live {
		if name != "" && (s.ID == name || s.Handle == name || s.ID != "" && strings.HasPrefix(s.ID, name)) {
			running = true
		}
	}
	if !running && name == "" {
		return offerSaved(base, stdio)
	}
	if running {
		if name == "" && len(live) > 1 {
			printLive(stdio.Out, live)
			return exitError{code: ExitUsage, msg: "the daemon runs several sessions: give the id of one (synaps attach ID)"}
		}
		if len(flags) > 0 {
			fmt.Fprintf(stdio.Err, "note: %s apply when a session starts; this one runs already, so they change nothing\n", strings.Join(flags, " "))
		}
		if cl, err = daemon.Dial(base); err != nil {
			return err
		}
		cols, rows := termSize(stdio.Out)
		a, err := cl.Attach(name, mode, cols, rows)
		if err != nil {
			return err
		}
		return relay(ctx, base, a, stdio)
	}
	// A saved session no daemon runs: resume it in the daemon, where it
	// ran (its cwd).
	if mode == daemon.ModeObserve {
		return fmt.Errorf("session %s does not run in the daemon, so there is nothing to observe; synaps attach %s resumes it", name, name)
	}
	if owner, held := session.Locked(base, name); held {
		return fmt.Errorf("session %s is in use by pid %d (%s), outside the daemon; end it there first", name, owner.PID, owner.Command)
	}
	path := filepath.Join(session.Dir(base), name+".jsonl")
	d, err := session.Read(path)
	if err != nil {
		return err
	}
	cwd := d.Header.Cwd
	if fi, err := os.Stat(cwd); cwd == "" || err != nil || !fi.IsDir() {
		if cwd, err = os.Getwd(); err != nil {
			return err
		}
	}
	if cl, err = daemon.Dial(base); err != nil {
		return err
	}
	cols, rows := termSize(stdio.Out)
	a, err := cl.NewSession(exe, append([]string{"--resume=" + name}, flags...), cwd, os.Environ(), cols, rows)
	if err != nil {
		return err
	}
	return relay(ctx, base, a, stdio)
}

// offerSaved says no session runs in the daemon and offers the newest
// saved ones (after a daemon was killed, its sessions are there).
func offerSaved(base string, stdio Stdio) error {
	infos, err := session.List(base)
	if err != nil {
		return err
	}
	if len(infos) == 0 {
		return exitError{code: ExitError, msg: "no session runs in the daemon and none is saved; start one with synaps --detachable"}
	}
	fmt.Fprintln(stdio.Out, "no session runs in the daemon; saved sessions (synaps attach ID resumes one in the daemon):")
	w := tabwriter.NewWriter(stdio.Out, 0, 0, 2, ' ', 0)
	for i, in := range infos {
		if i == 5 {
			break
		}
		fmt.Fprintf(w, "  %s\t%s\t%s\t%s\n", in.ID, plural.Count(in.Messages, "message"), in.Cwd, in.Title)
	}
	w.Flush()
	return exitError{code: ExitError}
}

func printLive(out io.Writer, live []daemon.SessionInfo) {
	w := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "ID\tPID\tSTATE\tCLIENTS\tCWD")
	for _, s := range live {
		id := s.ID
		if id == "" {
			id = s.Handle + " (opening)"
		}
		state := "idle"
		if s.Busy {
			state = "working"
		}
		clients := fmt.Sprintf("%d observing", s.Watch)
		if s.Owner {
			clients = "owner, " + clients
		}
		fmt.Fprintf(w, "%s\t%d\t%s\t%s\t%s\n", id, s.PID, state, clients, s.Cwd)
	}
	w.Flush()
}

func newSendCmd(stdio Stdio) *cobra.Command {
	return &cobra.Command{
		Use:   "send ID TEXT",
		Short: "Send text to a session in the daemon: it steers a running turn, or is a new message when idle",
		Long: `synaps send gives TEXT to a session the session daemon runs (one
started with --detachable, or resumed with synaps attach), as Enter gives
typed text: while a turn runs it steers that turn (the text joins it at
the next model request); when the session is idle it is a new message.
The words after ID are joined with spaces.

ID is a session id, a unique start of one, or the handle synaps daemon
sessions shows. It prints "sent to ID" on stderr and exits 0 once the
session took the text; a session the daemon does not run is an error
that says how to resume it there (synaps attach ID). See docs/daemon.md.`,
		Example: `  synaps send 20261203-102010-ab3c "also run the tests"
  synaps send 20261203 run the linter too        (a unique start of the id)
  git log -1 --format=%s | xargs -0 synaps send 20261203-102010-ab3c`,
		Args: cobra.MinimumNArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			base, err := baseDir()
			if err != nil {
				return err
			}
			cl, err := daemon.Dial(base)
			if errors.Is(err, daemon.ErrNotRunning) {
				return fmt.Errorf("no synaps daemon is running, so session %s is not running where send can reach it; synaps attach %s resumes it in the daemon", args[0], args[0])
			}
			if err != nil {
				return err
			}
			id, err := cl.Send(args[0], strings.Join(args[1:], " "))
			if err != nil {
				return err
			}
			fmt.Fprintf(stdio.Err, "sent to %s\n", id)
			return nil
		},
	}
}

func newDaemonCmd(stdio Stdio) *cobra.Command {
	cmd := &cobra.Command{Use: "daemon", Short: "The session daemon: status, sessions, stop (docs/daemon.md)"}
	var asJSON bool
	dial := func() (*daemon.Client, error) {
		base, err := baseDir()
		if err != nil {
			return nil, err
		}
		cl, err := daemon.Dial(base)
		if errors.Is(err, daemon.ErrNotRunning) {
			return nil, exitError{code: ExitError, msg: "no synaps daemon is running (synaps --detachable or synaps attach starts one)"}
		}
		return cl, err
	}
	status := &cobra.Command{
		Use:   "status",
		Short: "Say whether the daemon runs, its pid, socket and sessions",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cl, err := dial()
			if err != nil {
				return err
			}
			st, err := cl.Status()
			if err != nil {
				return err
			}
			if asJSON {
				return json.NewEncoder(stdio.Out).Encode(st)
			}
			idle := "never"
			if st.IdleExit != "" {
				idle = "after " + st.IdleExit + " with no client and no turn running"
			}
			fmt.Fprintf(stdio.Out, "running: pid %d since %s\nsocket: %s\nsessions: %d, clients: %d\nidle exit: %s\n",
				st.PID, st.Started, st.Socket, st.Sessions, st.Clients, idle)
			return nil
		},
	}
	status.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	sessions := &cobra.Command{
		Use:   "sessions",
		Short: "List the sessions the daemon runs",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cl, err := dial()
			if err != nil {
				return err
			}
			list, err := cl.Sessions()
			if err != nil {
				return err
			}
			if asJSON {
				return json.NewEncoder(stdio.Out).Encode(list)
			}
			if len(list) == 0 {
				fmt.Fprintln(stdio.Out, "the daemon runs no session")
				return nil
			}
			printLive(stdio.Out, list)
			return nil
		},
	}
	sessions.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	stop := &cobra.Command{
		Use:   "stop [ID]",
		Short: "Stop the daemon (its sessions are saved and end), or end one session of it",
		Args:  cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			cl, err := dial()
			if err != nil {
				return err
			}
			name := ""
			if len(args) == 1 {
				name = args[0]
			}
			if err := cl.Stop(name); err != nil {
				return err
			}
			if name != "" {
				fmt.Fprintf(stdio.Err, "ended session %s\n", name)
				return nil
			}
			// Wait until it has let go of its lock: its sessions have
			// ended and are saved (each has stopGrace, then is killed).
			base, _ := baseDir()
			for deadline := time.Now().Add(time.Minute); daemon.Running(base); time.Sleep(20 * time.Millisecond) {
				if time.Now().After(deadline) {
					return errors.New("the daemon did not stop within a minute; see " + daemon.PathsOf(base).Log)
				}
			}
			fmt.Fprintln(stdio.Err, "stopped the synaps daemon")
			return nil
		},
	}
	var idle time.Duration
	serve := &cobra.Command{
		Use:    "serve",
		Short:  "Run the daemon in the foreground (synaps starts it itself when needed)",
		Hidden: true,
		Args:   cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			base, err := baseDir()
			if err != nil {
				return err
			}
			if !cmd.Flags().Changed("idle-exit") {
				if idle, err = configIdleExit(base); err != nil {
					return err
				}
			}
			logger := log.New(stdio.Err, "", log.LstdFlags)
			srv, err := daemon.Listen(base, daemon.Options{IdleExit: idle, Logf: logger.Printf})
			if err != nil {
				return err
			}
			logger.Printf("synaps daemon %s: pid %d listening on %s", Version, os.Getpid(), daemon.PathsOf(base).Socket)
			return srv.Serve(cmd.Context())
		},
	}
	serve.Flags().DurationVar(&idle, "idle-exit", 0, "exit after `DURATION` with no client and no turn running (0: config daemon_idle_exit, else 30m; negative: never)")
	cmd.AddCommand(status, sessions, stop, serve)
	return cmd
}

// configIdleExit is config daemon_idle_exit: a duration, or never.
func configIdleExit(base string) (time.Duration, error) {
	cfg, err := config.Load(filepath.Join(base, "config"))
	if err != nil || cfg == nil {
		return 0, nil
	}
	v, ok := cfg.Get(config.KeyDaemonIdleExit)
	if !ok || strings.TrimSpace(v) == "" {
		return 0, nil
	}
	if v = strings.TrimSpace(v); v == "never" {
		return -1, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		return 0, usageError{fmt.Errorf("%s: %s = %q: give a duration such as 30m, or never; fix or remove the line", cfg.Path, config.KeyDaemonIdleExit, v)}
	}
	return d, nil
}
