//go:build !linux

package daemon

import (
	"errors"
	"os"
	"syscall"

	"github.com/synaps-cli/synaps/internal/procgroup"
)

var errNoPTY = errors.New("detachable sessions need Linux (the daemon's pseudo-terminals are Linux only for now)")

func openPTY() (master, slave *os.File, err error) { return nil, nil, errNoPTY }

func setSize(master *os.File, cols, rows int) error { return errNoPTY }

func sessionAttr() *syscall.SysProcAttr { return procgroup.Session() }
