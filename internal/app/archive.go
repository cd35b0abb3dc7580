package app

import (
	"archive/tar"
	"archive/zip"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// Archive sources: a marketplace entry whose source is an archive on a
// web server, pinned by its sha256 —
//
//	{"source": "url", "url": "https://host/kit-1.2.0.tar.gz", "sha256": "…"}
//
// (or "source": "archive"). The archive (.tar.gz, .tgz, .tar or .zip) is
// downloaded, its digest checked before a byte of it is unpacked, and
// unpacked into a temporary directory that is installed as any plugin
// directory is. An archive comes from elsewhere and may be hostile: an
// entry that leaves the directory (an absolute path, ".."), a link of
// any kind, a device or pipe, more than archiveMaxFiles entries, or more
// than archiveMaxBytes in all (downloaded or unpacked) stops the install
// with an error naming the entry, and nothing is installed.

// Bounds on an archive, downloaded and unpacked (variables so that
// tests can lower them).
var (
	archiveMaxBytes int64 = 256 << 20
	archiveMaxFiles       = 20000
)

// archiveSource is an entry's archive: where, its pinned digest, and an
// optional directory inside it that is the plugin.
type archiveSource struct {
	URL, SHA256, Path string
}

// isArchiveName reports whether u names an archive synaps unpacks.
func isArchiveName(u string) bool {
	u = strings.ToLower(strings.SplitN(u, "?", 2)[0])
	for _, ext := range []string{".tar.gz", ".tgz", ".tar", ".zip"} {
		if strings.HasSuffix(u, ext) {
			return true
		}
	}
	return false
}

// entryArchive reads an entry's source as an archive source; ok is false
// when it is another kind. An archive without a sha256 is an error.
func entryArchive(file, name string, raw json.RawMessage) (a *archiveSource, ok bool, err error) {
	var src struct {
		Source string `json:"source"`
		URL    string `json:"url"`
		SHA256 string `json:"sha256"`
		Path   string `json:"path"`
	}
	if json.Unmarshal(raw, &src) != nil {
		return nil, false, nil
	}
	if src.Source != "archive" && !(src.Source == "url" && (isArchiveName(src.URL) || src.SHA256 != "")) {
		return nil, false, nil
	}
	if !strings.HasPrefix(src.URL, "https://") && !strings.HasPrefix(src.URL, "http://") {
		return nil, true, fmt.Errorf("%s: plugin %s: an archive source needs \"url\", an http(s) URL of a .tar.gz, .tgz, .tar or .zip (got %q)", file, name, src.URL)
	}
	sum := strings.ToLower(strings.TrimPrefix(src.SHA256, "sha256:"))
	if b, err := hex.DecodeString(sum); err != nil || len(b) != sha256.Size {
		return nil, true, fmt.Errorf("%s: plugin %s: an archive source needs \"sha256\", the archive's SHA-256 as 64 hex digits (sha256sum prints it), got %q", file, name, src.SHA256)
	}
	if src.Path != "" && (filepath.IsAbs(src.Path) || strings.HasPrefix(path.Clean(src.Path), "..")) {
		return nil, true, fmt.Errorf("%s: plugin %s: \"path\" %q must be a directory inside the archive", file, name, src.Path)
	}
	return &archiveSource{URL: src.URL, SHA256: sum, Path: src.Path}, true, nil
}

// fetchArchive downloads a, checks its digest and unpacks it into a new
// temporary directory (removed by the caller); dir is the plugin's
// directory in it: a.Path, else the archive's single top directory when
// it has one (as release archives do), else its root.
func fetchArchive(ctx context.Context, a *archiveSource) (tmp, dir string, err error) {
	work, err := os.MkdirTemp("", "synaps-archive-")
	if err != nil {
		return "", "", err
	}
	defer func() {
		if err != nil {
			os.RemoveAll(work) // tmp is "" by now
		}
	}()
	tmp = work
	file := filepath.Join(tmp, "download")
	if err := download(ctx, a.URL, file, a.SHA256); err != nil {
		return "", "", err
	}
	root := filepath.Join(tmp, "root")
	if err := os.Mkdir(root, 0o755); err != nil {
		return "", "", err
	}
	if err := unpack(file, root, a.URL); err != nil {
		return "", "", fmt.Errorf("%s: %w", a.URL, err)
	}
	os.Remove(file)
	dir = root
	if a.Path != "" {
		dir = filepath.Join(root, filepath.FromSlash(a.Path))
		if !dirExists(dir) {
			return "", "", fmt.Errorf("%s has no directory %q (the source's \"path\")", a.URL, a.Path)
		}
	} else if ents, _ := os.ReadDir(root); len(ents) == 1 && ents[0].IsDir() {
		dir = filepath.Join(root, ents[0].Name())
	}
	return tmp, dir, nil
}

// download writes url's body to file, at most archiveMaxBytes, and
// checks its SHA-256 against want.
func download(ctx context.Context, url, file, want string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return fmt.Errorf("%s: %v", url, err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("downloading %s: %v", url, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("downloading %s: %s", url, resp.Status)
	}
	out, err := os.OpenFile(file, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(out, h), io.LimitReader(resp.Body, archiveMaxBytes+1))
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("downloading %s: %v", url, err)
	}
	if n > archiveMaxBytes {
		return fmt.Errorf("downloading %s: larger than %d MiB; a plugin archive is refused past that", url, archiveMaxBytes>>20)
	}
	if got := hex.EncodeToString(h.Sum(nil)); got != want {
		return fmt.Errorf("%s: sha256 is %s, but the marketplace pins %s; the archive changed or is not the one published, so it is not installed", url, got, want)
	}
	return nil
}

// unpack unpacks the archive at file (named by url, for its kind) into
// dst, refusing what the comment at the top names.
func unpack(file, dst, url string) error {
	u := strings.ToLower(strings.SplitN(url, "?", 2)[0])
	if strings.HasSuffix(u, ".zip") {
		return unzipFile(file, dst)
	}
	f, err := os.Open(file)
	if err != nil {
		return err
	}
	defer f.Close()
	var r io.Reader = f
	if !strings.HasSuffix(u, ".tar") {
		gz, err := gzip.NewReader(f)
		if err != nil {
			return fmt.Errorf("not a gzip archive: %v", err)
		}
		defer gz.Close()
		r = gz
	}
	return untar(r, dst)
}

// unpacker writes an archive's entries under dst within the bounds.
type unpacker struct {
	dst   string
	files int
	bytes int64
}

// target is where entry name goes, or an error when it would leave dst.
func (u *unpacker) target(name string) (string, error) {
	u.files++
	if u.files > archiveMaxFiles {
		return "", fmt.Errorf("more than %d entries; a plugin archive is refused past that", archiveMaxFiles)
	}
	clean := path.Clean(strings.ReplaceAll(name, "\\", "/"))
	if name == "" || path.IsAbs(clean) || clean == ".." || strings.HasPrefix(clean, "../") || strings.Contains(name, "\x00") || filepath.VolumeName(name) != "" {
		return "", fmt.Errorf("entry %q leaves the archive's directory; the archive is refused", name)
	}
	return filepath.Join(u.dst, filepath.FromSlash(clean)), nil
}

// write copies one file's content, counting it against the bound.
func (u *unpacker) write(to string, r io.Reader, mode os.FileMode, name string) error {
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		return err
	}
	perm := os.FileMode(0o644)
	if mode&0o111 != 0 {
		perm = 0o755
	}
	out, err := os.OpenFile(to, os.O_CREATE|os.O_EXCL|os.O_WRONLY, perm)
	if err != nil {
		return fmt.Errorf("entry %q: %v", name, err)
	}
	n, err := io.Copy(out, io.LimitReader(r, archiveMaxBytes-u.bytes+1))
	u.bytes += n
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("entry %q: %v", name, err)
	}
	if u.bytes > archiveMaxBytes {
		return fmt.Errorf("unpacks to more than %d MiB; a plugin archive is refused past that", archiveMaxBytes>>20)
	}
	return nil
}

func untar(r io.Reader, dst string) error {
	u := &unpacker{dst: dst}
	tr := tar.NewReader(r)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("not a valid tar archive: %v", err)
		}
		to, err := u.target(h.Name)
		if err != nil {
			return err
		}
		switch h.Typeflag {
		case tar.TypeDir:
			if err := os.MkdirAll(to, 0o755); err != nil {
				return err
			}
		case tar.TypeReg:
			if err := u.write(to, tr, h.FileInfo().Mode(), h.Name); err != nil {
				return err
			}
		case tar.TypeXGlobalHeader:
		case tar.TypeSymlink, tar.TypeLink:
			return fmt.Errorf("entry %q is a link (to %q); plugin archives may hold only files and directories", h.Name, h.Linkname)
		default:
			return fmt.Errorf("entry %q is not a file or directory (tar type %q); the archive is refused", h.Name, h.Typeflag)
		}
	}
}

func unzipFile(file, dst string) error {
	zr, err := zip.OpenReader(file)
	if err != nil {
		return fmt.Errorf("not a valid zip archive: %v", err)
	}
	defer zr.Close()
	u := &unpacker{dst: dst}
	for _, f := range zr.File {
		to, err := u.target(f.Name)
		if err != nil {
			return err
		}
		mode := f.Mode()
		switch {
		case mode.IsDir():
			if err := os.MkdirAll(to, 0o755); err != nil {
				return err
			}
		case mode&os.ModeSymlink != 0:
			return fmt.Errorf("entry %q is a link; plugin archives may hold only files and directories", f.Name)
		case mode.IsRegular():
			rc, err := f.Open()
			if err != nil {
				return fmt.Errorf("entry %q: %v", f.Name, err)
			}
			err = u.write(to, rc, mode, f.Name)
			rc.Close()
			if err != nil {
				return err
			}
		default:
			return fmt.Errorf("entry %q is not a file or directory; the archive is refused", f.Name)
		}
	}
	return nil
}

// marketArchive is NAME@MARKETPLACE's archive source, when its entry
// has one.
func marketArchive(base, ref string) (*archiveSource, bool, error) {
	name, market, _ := strings.Cut(ref, "@")
	m, err := ReadMarketplace(filepath.Join(marketplacesDir(base), market))
	if err != nil {
		return nil, false, nil // marketSource says why
	}
	for _, p := range m.Plugins {
		if p.Name == name && len(p.Source) > 0 {
			return entryArchive(m.File, name, p.Source)
		}
	}
	return nil, false, nil
}
