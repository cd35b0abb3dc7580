package checkpoint

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// The contents a bash index keeps are written as packs: one file per
// turn holding the contents of the files read in that turn, one after
// the other, instead of one file each (creating thousands of files was
// most of the first index's cost). An index entry names its pack and
// range; a file a command changes is copied from its pack into an object
// when its point records it. Packs no entry uses are removed, and a pack
// less than half used is not reused (its files are read again into the
// turn's pack), so the packs stay within twice what they hold.

// packRef is where a kept content lies.
type packRef struct {
	pack   string // file name in the packs directory; "" not kept
	off, n int64
}

// packs is the packs directory of a record.
type packs struct {
	dir string // "" keeps nothing
	seq int    // names new packs
}

// packWriter writes one pack.
type packWriter struct {
	f    *os.File
	w    *bufio.Writer
	name string
	off  int64
	err  error
}

// create starts a new pack.
func (p *packs) create() (*packWriter, error) {
	if p.dir == "" {
		return nil, fmt.Errorf("no packs directory")
	}
	if err := os.MkdirAll(p.dir, 0o700); err != nil {
		return nil, err
	}
	for {
		p.seq++
		name := fmt.Sprintf("%d.pack", p.seq)
		f, err := os.OpenFile(filepath.Join(p.dir, name), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if os.IsExist(err) {
			continue
		}
		if err != nil {
			return nil, err
		}
		return &packWriter{f: f, w: bufio.NewWriterSize(f, 256<<10), name: name}, nil
	}
}

// add appends b and says where it lies.
func (w *packWriter) add(b []byte) (packRef, bool) {
	if w.err != nil {
		return packRef{}, false
	}
	if _, w.err = w.w.Write(b); w.err != nil {
		return packRef{}, false
	}
	r := packRef{pack: w.name, off: w.off, n: int64(len(b))}
	w.off += int64(len(b))
	return r, true
}

// close ends the pack; false when what was added is not all there.
func (w *packWriter) close() bool {
	if err := w.w.Flush(); w.err == nil {
		w.err = err
	}
	if err := w.f.Close(); w.err == nil {
		w.err = err
	}
	return w.err == nil
}

// read is the content at r.
func (p *packs) read(r packRef) ([]byte, error) {
	f, err := os.Open(filepath.Join(p.dir, filepath.Base(r.pack)))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b := make([]byte, r.n)
	if _, err := io.ReadFull(io.NewSectionReader(f, r.off, r.n), b); err != nil {
		return nil, err
	}
	return b, nil
}

// size is the pack's size on disk (0 when it cannot be told).
func (p *packs) size(name string) int64 {
	if fi, err := os.Stat(filepath.Join(p.dir, name)); err == nil {
		return fi.Size()
	}
	return 0
}

// prune removes the packs not in keep.
func (p *packs) prune(keep map[string]bool) {
	if p.dir == "" {
		return
	}
	entries, err := os.ReadDir(p.dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		if !keep[e.Name()] {
			os.Remove(filepath.Join(p.dir, e.Name()))
		}
	}
}
