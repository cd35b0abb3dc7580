//go:build windows

package lifeline

// noSentinel says why Windows has no sentinel: it has no /bin/sh to run
// it, and no process groups for it to kill.
const noSentinel = "lifeline: not available on Windows: processes synaps starts may outlive it if it is killed"
