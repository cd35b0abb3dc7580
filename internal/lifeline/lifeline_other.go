//go:build !linux

package lifeline

import "errors"

// setSubreaper is Linux only: elsewhere an orphan goes to init.
func setSubreaper() error { return errors.New("no child subreaper on this system") }

func reapOrphans(map[int]bool) {}
