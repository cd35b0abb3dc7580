package app

// What `synaps extensions install` does after the copy for a plugin in
// SynapsCLI's shape: unpack a prebuilt binary found locally (checked
// against its SHA-256), or else run the plugin's setup script once.

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/synaps-cli/synaps/internal/plugin"
	"github.com/synaps-cli/synaps/internal/sandbox"
)

// SetupTimeout caps a plugin's setup script, as SynapsCLI does.
const SetupTimeout = 600 * time.Second

// maxPrebuilt caps the size of a prebuilt archive and of what it unpacks
// to (SynapsCLI's download cap).
const maxPrebuilt = 128 << 20

// SetupError is a setup script that failed. The plugin stays installed:
// the script can be fixed and run again.
type SetupError struct {
	Script string
	Err    error
}

func (e *SetupError) Error() string {
	return fmt.Sprintf("its setup script %s failed (%v); the plugin is installed but its extension may not start until the script succeeds: fix it and run `bash %s` in the plugin directory", e.Script, e.Err, e.Script)
}

func (e *SetupError) Unwrap() error { return e.Err }

// commandMissing reports whether ext's command is a file of the plugin
// (a path, not a name looked up in PATH) that does not exist in dir.
func commandMissing(dir string, ext *plugin.ExtensionManifest) (string, bool) {
	c := ext.Command
	if c == "" || !strings.ContainsAny(c, `/\`) || filepath.IsAbs(c) || plugin.CheckPluginPath(c) != "" {
		return "", false
	}
	_, err := os.Stat(filepath.Join(dir, c))
	return c, errors.Is(err, os.ErrNotExist)
}

// installPrebuilt unpacks this platform's prebuilt archive into dir (the
// copy being installed) when the extension's command is missing and the
// archive is at hand: a file:// URL, an absolute path, or a path in the
// plugin (src is the plugin as given). A digest that does not match stops
// the install. It reports whether it installed the binary, and a note
// when the archive is elsewhere (synaps downloads nothing).
func installPrebuilt(src, dir string, ext *plugin.ExtensionManifest) (bool, string, error) {
	if ext == nil || len(ext.Prebuilt) == 0 {
		return false, "", nil
	}
	cmd, missing := commandMissing(dir, ext)
	if !missing {
		return false, "", nil
	}
	pb, ok := ext.Prebuilt[plugin.HostTriple()]
	if !ok {
		return false, fmt.Sprintf("extension.prebuilt has no binary for this platform (%s)", plugin.HostTriple()), nil
	}
	field := "extension.prebuilt." + plugin.HostTriple()
	file, local := localArchive(src, pb.URL)
	if !local {
		return false, fmt.Sprintf("%s: synaps does not download prebuilt binaries; fetch %s, check that its SHA-256 is %s, and unpack it into the plugin directory so that %s exists (or install from a copy that holds the archive)", field, pb.URL, pb.SHA256, cmd), nil
	}
	data, err := readCapped(file)
	if err != nil {
		return false, "", fmt.Errorf("%s: cannot read the prebuilt archive %s: %v", field, file, err)
	}
	sum := sha256.Sum256(data)
	if got := hex.EncodeToString(sum[:]); got != pb.SHA256 {
		return false, "", fmt.Errorf("%s: the prebuilt archive %s has SHA-256 %s, but the manifest says %s; it was not installed (a corrupt or substituted file): get the right archive, or correct \"sha256\"", field, file, got, pb.SHA256)
	}
	switch name := strings.ToLower(file); {
	case strings.HasSuffix(name, ".tar.gz"), strings.HasSuffix(name, ".tgz"):
		err = untarGz(data, dir)
	case strings.HasSuffix(name, ".zip"):
		err = unzip(data, dir)
	default:
		// A bare binary is the command itself.
		err = writeFileIn(dir, cmd, data, 0o755)
	}
	if err != nil {
		return false, "", fmt.Errorf("%s: unpacking %s: %v", field, file, err)
	}
	info, err := os.Stat(filepath.Join(dir, cmd))
	switch {
	case err != nil:
		return false, "", fmt.Errorf("%s: the prebuilt archive %s does not hold %s (extension.command); fix the archive or the command", field, file, cmd)
	case !info.Mode().IsRegular():
		return false, "", fmt.Errorf("%s: %s from the prebuilt archive is not a regular file", field, cmd)
	case info.Mode().Perm()&0o111 == 0 && runtime.GOOS != "windows": // Windows has no exec bit
		return false, "", fmt.Errorf("%s: %s from the prebuilt archive is not executable; set its exec bit in the archive", field, cmd)
	}
	return true, "", nil
}

// localArchive resolves a prebuilt URL to a file on this machine, if it
// names one that exists.
func localArchive(src, url string) (string, bool) {
	var file string
	switch {
	case strings.HasPrefix(url, "file://"):
		file = strings.TrimPrefix(url, "file://")
	case strings.Contains(url, "://"):
		return "", false
	case filepath.IsAbs(url):
		file = url
	case plugin.CheckPluginPath(url) == "":
		file = filepath.Join(src, url)
	default:
		return "", false
	}
	info, err := os.Stat(file)
	return file, err == nil && info.Mode().IsRegular()
}

func readCapped(file string) ([]byte, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxPrebuilt+1))
	if err == nil && len(data) > maxPrebuilt {
		return nil, fmt.Errorf("it is larger than %d MiB", maxPrebuilt>>20)
	}
	return data, err
}

// writeFileIn writes rel inside dir, refusing paths that leave it.
func writeFileIn(dir, rel string, data []byte, mode os.FileMode) error {
	if why := plugin.CheckPluginPath(rel); why != "" {
		return fmt.Errorf("entry %q %s", rel, why)
	}
	out := filepath.Join(dir, rel)
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return err
	}
	return os.WriteFile(out, data, mode.Perm()|0o600)
}

func untarGz(data []byte, dir string) error {
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return err
	}
	tr := tar.NewReader(zr)
	total := 0
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		switch h.Typeflag {
		case tar.TypeDir:
			if why := plugin.CheckPluginPath(h.Name); why != "" && h.Name != "./" {
				return fmt.Errorf("entry %q %s", h.Name, why)
			}
			continue
		case tar.TypeReg:
		default:
			return fmt.Errorf("entry %q is not a regular file or directory; links are not unpacked", h.Name)
		}
		b, err := io.ReadAll(io.LimitReader(tr, int64(maxPrebuilt-total)+1))
		if err != nil {
			return err
		}
		if total += len(b); total > maxPrebuilt {
			return fmt.Errorf("it unpacks to more than %d MiB", maxPrebuilt>>20)
		}
		if err := writeFileIn(dir, h.Name, b, os.FileMode(h.Mode)); err != nil {
			return err
		}
	}
}

func unzip(data []byte, dir string) error {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return err
	}
	total := 0
	for _, f := range zr.File {
		if f.FileInfo().IsDir() {
			continue
		}
		if !f.Mode().IsRegular() {
			return fmt.Errorf("entry %q is not a regular file; links are not unpacked", f.Name)
		}
		rc, err := f.Open()
		if err != nil {
			return err
		}
		b, err := io.ReadAll(io.LimitReader(rc, int64(maxPrebuilt-total)+1))
		rc.Close()
		if err != nil {
			return err
		}
		if total += len(b); total > maxPrebuilt {
			return fmt.Errorf("it unpacks to more than %d MiB", maxPrebuilt>>20)
		}
		if err := writeFileIn(dir, f.Name, b, f.Mode()); err != nil {
			return err
		}
	}
	return nil
}

// runSetup runs the plugin's setup script once, with bash, in dir, under
// pol (nil: unconfined), its output (stdout and stderr) going to out as
// it comes, and after it what the sandbox refused.
func runSetup(ctx context.Context, dir, script string, out io.Writer, pol *sandbox.Policy) error {
	if out == nil {
		out = io.Discard
	}
	full := filepath.Join(dir, script)
	if _, err := os.Stat(full); err != nil {
		return &SetupError{Script: script, Err: fmt.Errorf("the script is missing: %v", err)}
	}
	ctx, cancel := context.WithTimeout(ctx, SetupTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", script)
	cmd.Dir = dir
	var tail tailBuffer
	w := io.MultiWriter(out, &tail)
	cmd.Stdout, cmd.Stderr = w, w
	cmd.WaitDelay = 2 * time.Second
	said, err := runUnder(cmd, pol, tail.String)
	for _, l := range said {
		fmt.Fprintln(out, l)
	}
	if err != nil {
		if ctx.Err() == context.DeadlineExceeded {
			err = fmt.Errorf("it ran longer than %s and was stopped", SetupTimeout)
		}
		return &SetupError{Script: script, Err: err}
	}
	return nil
}
