//go:build !windows

package lifeline

// noSentinel is empty: the sentinel runs here (given /bin/sh).
const noSentinel = ""
