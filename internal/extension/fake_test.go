package extension

import (
	"context"
	"os"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/synaps-cli/synaps/internal/extension/exttest"
)

// The host tests run real processes: the test binary re-runs itself as a
// fake extension (argv[1] == "fake-extension") whose behaviour is read
// from fake.json in its plugin root. Most tests therefore need neither
// Python nor Node.

func TestMain(m *testing.M) {
	exttest.Main()
	if os.Getenv(logWriterEnv) != "" {
		os.Exit(runLogWriter())
	}
	goleak.VerifyTestMain(m)
}

// startHost starts a host on base and shuts it down (and checks that no
// child process is left) when the test ends.
func startHost(t testing.TB, base string, mod func(*Options)) *Host {
	t.Helper()
	return startHostEnv(t, base, mod, nil)
}

// startHostEnv is startHost with envMod applied to the host's internal
// settings before it starts.
func startHostEnv(t testing.TB, base string, mod func(*Options), envMod func(*hostEnv)) *Host {
	t.Helper()
	o := Options{BaseDir: base, Version: "test", Getenv: func(k string) string {
		if k == "SYNAPS_EXTENSIONS_TRACE" {
			return ""
		}
		return os.Getenv(k)
	}}
	if mod != nil {
		mod(&o)
	}
	h := NewHost(o)
	// Short waits keep stop-sequence tests quick; the order of the steps
	// is what they check.
	h.env.stop = stopTimeouts{reply: 500 * time.Millisecond, exit: 300 * time.Millisecond}
	if envMod != nil {
		envMod(h.env)
	}
	if err := h.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		h.Shutdown()
		assertNoChildren(t)
	})
	return h
}

// Short names for the exttest helpers the host tests use.
type fakeSpec = exttest.Spec

var (
	fakePlugin          = exttest.Plugin
	readRecord          = exttest.ReadRecord
	readStamp           = exttest.ReadStamp
	assertNoProcessesIn = exttest.AssertNoProcessesIn
	assertNoChildren    = exttest.AssertNoChildren
)
