package conformance

import (
	"testing"

	"go.uber.org/goleak"

	"github.com/synaps-cli/synaps/internal/extension/exttest"
)

// The harness tests run real processes: the test binary re-runs itself as
// the fake extension (exttest.Main) whose behaviour is read from fake.json
// in its plugin root.
func TestMain(m *testing.M) {
	exttest.Main()
	goleak.VerifyTestMain(m)
}
