package extension

import (
	"fmt"
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

func (n *notifier) say(format string, args ...any) {
	if n == nil || n.f == nil {
		return
	}
	msg := fmt.Sprintf(format, args...)
	n.mu.Lock()
	defer n.mu.Unlock()
	n.f(msg)
}
