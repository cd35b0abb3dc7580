package extension

import (
	"fmt"
	"strings"
	"sync"
)

// notifier hands messages the user must see during a session to the UI
// (Options.Notify). The lock keeps them whole: observation hooks report
// from several goroutines at once.
type notifier struct {
	// mu serialises calls of f.
	mu sync.Mutex
	f  func(string)
}

// failedToLoad says that extension id failed to start, with the first
// line of why (the rest is in `synaps extensions info`): a start in the
// background and a start from the cache end so.
func (n *notifier) failedToLoad(id, reason string) {
	if i := strings.IndexByte(reason, '\n'); i >= 0 {
		reason = reason[:i] + " …"
	}
	n.say("extension %s failed to load: %s", id, reason)
}

func (n *notifier) say(format string, args ...any) {
	if n == nil || n.f == nil {
		return
	}
	msg := fmt.Sprintf(format, args...)
	n.mu.Lock()
	defer n.mu.Unlock()
	n.f(msg)
}
