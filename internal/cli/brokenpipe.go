package cli

import (
	"os/signal"
	"syscall"
)

// ignoreBrokenPipe makes a write to a stdout nobody reads any more fail
// with EPIPE instead of killing synaps with SIGPIPE, as Go does by default
// for fds 1 and 2. The protocol front-ends (acp, rpc) must see their peer
// leave mid-turn and end their sessions cleanly: on_session_end runs,
// extensions stop, the session file is closed. `synaps -p … | head` keeps
// the usual quiet SIGPIPE exit of a pipeline.
func ignoreBrokenPipe() { signal.Ignore(syscall.SIGPIPE) }
