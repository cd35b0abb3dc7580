// Package daemon is synaps's per-user session daemon: sessions that
// outlive the terminal they started in.
//
// # Shape
//
// The daemon is one process per base dir ($SYNAPS_BASE_DIR or
// ~/.synaps-cli), listening on the Unix socket run/daemon.sock (0600, in
// the 0700 run/ directory). It hosts any number of sessions; each is a
// synaps terminal UI running in its own pseudo-terminal, started with
// the cwd, environment and arguments of the client that asked for it, so
// each session has its own extensions, tools and session file (one host
// per session, exactly as a plain `synaps` would have). Clients — the
// `synaps --detachable` front-end and `synaps attach` — relay their
// terminal to a session: one client owns the input, any number observe.
// A new client first gets what the session printed so far (the replay,
// bounded to ReplayLimit bytes), then the output live.
//
// Why a pseudo-terminal per session instead of a second, remote UI: the
// terminal UI, its confirm prompts, slash commands and extensions work in
// a daemon session exactly as they do in a terminal, with no second
// implementation to drift. The session's UI talks to the daemon over a
// small side channel (the link, fd 3: link.go): it says when a turn runs
// (so idle exit never ends a running turn), when the user quits (which
// detaches the owner instead of ending the session), and it receives text
// from `synaps send`.
//
// # Liveness and faults
//
// run/daemon.lock is the liveness oracle: the daemon holds an flock on it
// for its whole life, so a daemon killed with -9 leaves a socket file
// nobody listens on and a free lock; the next client starts a new daemon,
// which takes the lock and replaces the stale socket. Sessions' children
// never outlive the daemon: each session's process group is announced to
// the lifeline sentinel and gets SIGKILL as parent-death signal, and its
// own lifeline ends its extensions and tools. A client that dies or stops
// reading never stalls a session: output to a client goes through a
// bounded queue; a client whose queue is full skips ahead and, once it
// has caught up, is sent the screen again (resync).
//
// # Wire
//
// Client and daemon exchange JSON objects (Frame) framed with
// Content-Length headers, the framing of the extension protocol
// (internal/jsonrpc's FrameReader and WriteFrame); docs/daemon.md lists
// every frame.
package daemon
