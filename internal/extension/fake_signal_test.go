package extension

import (
	"os"
	"os/signal"
)

func ignoreSignal(sig os.Signal) { signal.Ignore(sig) }
