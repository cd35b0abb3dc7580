package app

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"github.com/synaps-cli/synaps"
)

// shippedHash identifies the embedded files, so they are written once per
// synaps build rather than at every start. The files are the binary's, so
// the binary's own identity (path, size, modification time) names them
// without reading them: hashing them cost every start ≈ 2 ms of CPU. A
// binary that cannot be read names them by their SHA-256.
var shippedHash = sync.OnceValue(func() string {
	if exe, err := os.Executable(); err == nil {
		if fi, err := os.Stat(exe); err == nil {
			h := sha256.Sum256(fmt.Appendf(nil, "%s\x00%d\x00%d", exe, fi.Size(), fi.ModTime().UnixNano()))
			return "exe-" + hex.EncodeToString(h[:8])
		}
	}
	return contentHash()
})

// contentHash is the SHA-256 of the embedded files' paths and contents.
func contentHash() string {
	h := sha256.New()
	_ = fs.WalkDir(synaps.Shipped, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := synaps.Shipped.ReadFile(path)
		h.Write([]byte(path))
		h.Write(b)
		return err
	})
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// writeShipped puts the shipped skills and docs under baseDir/shipped and
// returns the skills directory. An up-to-date copy is left alone.
func writeShipped(baseDir string) (string, error) {
	root := filepath.Join(baseDir, "shipped")
	skills := filepath.Join(root, filepath.FromSlash(synaps.SkillsDir))
	stamp := filepath.Join(root, ".stamp")
	if b, err := os.ReadFile(stamp); err == nil && string(b) == shippedHash() {
		return skills, nil
	}
	if err := os.MkdirAll(baseDir, 0o755); err != nil {
		return "", err
	}
	tmp, err := os.MkdirTemp(baseDir, ".shipped-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	err = fs.WalkDir(synaps.Shipped, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		out := filepath.Join(tmp, path)
		if d.IsDir() {
			return os.MkdirAll(out, 0o755)
		}
		b, err := synaps.Shipped.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(out, b, 0o644)
	})
	if err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(tmp, ".stamp"), []byte(shippedHash()), 0o644); err != nil {
		return "", err
	}
	if err := os.RemoveAll(root); err != nil {
		return "", err
	}
	return skills, os.Rename(tmp, root)
}
