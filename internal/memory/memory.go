// Package memory is the per-plugin durable store behind the extension
// requests memory.append and memory.query (docs/extensions/protocol.md,
// "Requests from the extension").
//
// A namespace (the plugin id) is one file, <dir>/<namespace>.jsonl, one
// record a line, appended under a file lock so that several synaps processes
// (two sessions with the same plugin) never interleave half lines. The file
// is the truth; a Store keeps the records it has read and, on the next
// query, reads only what was appended since, so a query costs a stat when
// nothing changed. Records survive restarts of the plugin and of synaps.
//
// It knows nothing of extensions, permissions or JSON-RPC.
package memory

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/synaps-cli/synaps/internal/filelock"
)

// Limits.
const (
	// MaxContent is the largest content of one record, in bytes.
	MaxContent = 16 << 10
	// DefaultLimit is how many records a query returns when it names no
	// limit; MaxLimit caps what it may ask for.
	DefaultLimit = 50
	MaxLimit     = 1000
	// maxLine caps one stored line when reading (content, tags and meta).
	maxLine = 1 << 20
)

// Record is one stored memory, in the shape memory.query returns.
type Record struct {
	Namespace   string          `json:"namespace"`
	TimestampMS int64           `json:"timestamp_ms"`
	Content     string          `json:"content"`
	Tags        []string        `json:"tags"`
	Meta        json.RawMessage `json:"meta,omitempty"`
}

// Query selects records. Zero fields select everything.
type Query struct {
	// ContentContains keeps records whose content holds it, ignoring case.
	ContentContains string
	// TagPrefix keeps records with a tag that starts with it.
	TagPrefix string
	// SinceMS and UntilMS bound timestamp_ms, both inclusive; 0 = open.
	SinceMS, UntilMS int64
	// Limit caps the result (DefaultLimit when 0, at most MaxLimit).
	Limit int
}

// Store is the memory of every namespace under one directory
// (<base>/memory). It is safe for concurrent use.
type Store struct {
	dir string
	// now is the clock (tests replace it).
	now func() time.Time

	mu sync.Mutex
	// cache holds, per namespace, the records read so far and how many
	// bytes of the file they came from. Guarded by mu.
	cache map[string]*nsCache
}

type nsCache struct {
	read int64       // bytes of the file parsed into recs
	file fs.FileInfo // the file read, to tell a replaced one (os.SameFile)
	recs []Record
	last int64 // the newest timestamp appended by this process
}

// Open returns the store kept in dir. Nothing is created until the first
// append.
func Open(dir string) *Store {
	return &Store{dir: dir, now: time.Now, cache: map[string]*nsCache{}}
}

// Dir is the directory of the store.
func (s *Store) Dir() string { return s.dir }

// CheckNamespace reports whether ns can name a file of the store.
func CheckNamespace(ns string) error {
	switch {
	case ns == "":
		return errors.New("the namespace is empty")
	case ns == "." || ns == ".." || strings.ContainsAny(ns, "/\\\x00"):
		return fmt.Errorf("namespace %q may not contain '/', '\\' or be '.' or '..'", ns)
	}
	return nil
}

func (s *Store) path(ns string) string { return filepath.Join(s.dir, ns+".jsonl") }

// Append stores content with its tags and meta in namespace ns and
// returns the record as stored. Timestamps increase strictly within one
// Store, so records appended in one millisecond keep their order.
func (s *Store) Append(ns, content string, tags []string, meta json.RawMessage) (Record, error) {
	if err := CheckNamespace(ns); err != nil {
		return Record{}, err
	}
	if len(content) > MaxContent {
		return Record{}, fmt.Errorf("content is %d bytes; at most %d are stored per record", len(content), MaxContent)
	}
	if tags == nil {
		tags = []string{}
	}
	if len(bytes.TrimSpace(meta)) == 0 || string(bytes.TrimSpace(meta)) == "null" {
		meta = nil
	} else {
		var buf bytes.Buffer
		if err := json.Compact(&buf, meta); err != nil {
			return Record{}, fmt.Errorf("meta is not valid JSON: %v", err)
		}
		meta = buf.Bytes()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.cacheFor(ns)
	ts := s.now().UnixMilli()
	if ts <= c.last {
		ts = c.last + 1
	}
	r := Record{Namespace: ns, TimestampMS: ts, Content: content, Tags: tags, Meta: meta}
	line, err := json.Marshal(r)
	if err != nil {
		return Record{}, fmt.Errorf("meta is not valid JSON: %v", err)
	}
	line = append(line, '\n')
	if err := os.MkdirAll(s.dir, 0o700); err != nil {
		return Record{}, err
	}
	f, err := os.OpenFile(s.path(ns), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return Record{}, err
	}
	defer f.Close()
	if err := filelock.Lock(f); err != nil {
		return Record{}, err
	}
	if _, err := f.Write(line); err != nil {
		return Record{}, err
	}
	c.last = ts
	return r, nil
}

// Query returns the records of ns that q selects, newest first.
func (s *Store) Query(ns string, q Query) ([]Record, error) {
	if err := CheckNamespace(ns); err != nil {
		return nil, err
	}
	limit := q.Limit
	if limit <= 0 {
		limit = DefaultLimit
	}
	limit = min(limit, MaxLimit)
	needle := strings.ToLower(q.ContentContains)
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.cacheFor(ns)
	if err := s.refresh(ns, c); err != nil {
		return nil, err
	}
	out := []Record{}
	for i := len(c.recs) - 1; i >= 0 && len(out) < limit; i-- {
		r := c.recs[i]
		if q.SinceMS != 0 && r.TimestampMS < q.SinceMS || q.UntilMS != 0 && r.TimestampMS > q.UntilMS {
			continue
		}
		if needle != "" && !strings.Contains(strings.ToLower(r.Content), needle) {
			continue
		}
		if q.TagPrefix != "" && !hasTagPrefix(r.Tags, q.TagPrefix) {
			continue
		}
		out = append(out, r)
	}
	return out, nil
}

func hasTagPrefix(tags []string, p string) bool {
	for _, t := range tags {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	return false
}

func (s *Store) cacheFor(ns string) *nsCache {
	c := s.cache[ns]
	if c == nil {
		c = &nsCache{}
		s.cache[ns] = c
	}
	return c
}

// refresh reads what was appended to the file since the cache last read
// it; a file that shrank or was replaced is read again from the start.
// A line that is not a record (a torn write, an edit by hand) is skipped.
func (s *Store) refresh(ns string, c *nsCache) error {
	f, err := os.Open(s.path(ns))
	if errors.Is(err, fs.ErrNotExist) {
		c.recs, c.read, c.file = nil, 0, nil
		return nil
	}
	if err != nil {
		return err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return err
	}
	if info.Size() < c.read || c.file != nil && !os.SameFile(info, c.file) {
		c.recs, c.read = nil, 0
	}
	c.file = info
	if info.Size() == c.read {
		return nil
	}
	if _, err := f.Seek(c.read, io.SeekStart); err != nil {
		return err
	}
	r := bufio.NewReaderSize(f, 64<<10)
	for {
		line, err := r.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			// A line longer than the buffer: gather it whole.
			long := append([]byte(nil), line...)
			for errors.Is(err, bufio.ErrBufferFull) && len(long) <= maxLine {
				line, err = r.ReadSlice('\n')
				long = append(long, line...)
			}
			line = long
		}
		if err != nil {
			// An unterminated last line is an append under way: read it
			// next time.
			return nil
		}
		c.read += int64(len(line))
		var rec Record
		if json.Unmarshal(line, &rec) == nil && rec.Namespace == ns {
			if rec.Tags == nil {
				rec.Tags = []string{}
			}
			c.recs = append(c.recs, rec)
			c.last = max(c.last, rec.TimestampMS)
		}
	}
}
