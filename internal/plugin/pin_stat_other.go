//go:build !linux

package plugin

import "io/fs"

// statIdentity reports false: without a ctime known to be reliable here,
// pin checks are not remembered (pin_memo.go).
func statIdentity(fs.FileInfo) (string, bool) { return "", false }
