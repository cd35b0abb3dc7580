package app

import (
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"github.com/synaps-cli/synaps"
)

// shippedHash identifies the embedded files, so they are written once per
// synaps build rather than at every start.
var shippedHash = sync.OnceValue(func() string {
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
})

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
