package hook

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain checks that no test leaves a goroutine behind (observe runs
// links concurrently and must wait for them all).
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }
