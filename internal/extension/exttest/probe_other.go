//go:build !linux

package exttest

import "errors"

func ptraceParent() error { return errors.New("ptrace: not on this system") }
