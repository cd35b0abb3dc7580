package session

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

	"github.com/synaps-cli/synaps/internal/llm"
)

// Data is what a session file holds.
type Data struct {
	Header Record
	// Model is the model the session last switched to (a "model"
	// record); "" when it never switched from the header's.
	Model string
	// Messages is the conversation as it can be sent to a model: damaged
	// lines are skipped and the sequence around them is repaired (see
	// repair), so it never holds an orphan tool result.
	Messages []llm.Message
	// Usage sums the usage saved with the session's answers.
	Usage llm.Usage
	// Title is what the user typed for the message that titles the
	// session, when it is not that message's text (Record.Title).
	Title string
	// Compaction is set when the session continues a compacted one.
	Compaction *Record
	// Deferred is the last "deferred" record (deferred.go).
	Deferred *Record
	// Subagents are the transcripts of the subagents the session ran,
	// in the order they started. Their messages are not in Messages (the
	// parent's model never saw them); their usage is in Usage.
	Subagents []*Subagent
	// Reports are the per-call reports of the tool calls, the main
	// loop's and every subagent's, in the order the calls ended (empty
	// for a session recorded before synaps kept them).
	Reports []CallRecord
	// Skipped counts lines that could not be read as records (a line cut
	// short by a crash, or damage); they are never read as data.
	Skipped int
	// Damaged says which lines were skipped and why, in file order.
	Damaged []Damage
	// Repairs says what was changed in the conversation so that it is one
	// the model APIs accept.
	Repairs []string

	// path is the file, for warnings.
	path string
}

// Subagent is one subagent's part of a session file.
type Subagent struct {
	// ID, Type, ParentToolUseID and Description are from its
	// "subagent" record.
	ID, Type, ParentToolUseID, Description string
	Messages                               []llm.Message
	Usage                                  llm.Usage
}

// CallRecord is one tool call's report as the session keeps it.
type CallRecord struct {
	// Agent is the subagent whose call it was; "" for the main loop.
	Agent, ToolUseID string
	Report           json.RawMessage
}

// Subagent finds a subagent by id; nil when the session has none so
// named.
func (d *Data) Subagent(id string) *Subagent {
	for _, s := range d.Subagents {
		if s.ID == id {
			return s
		}
	}
	return nil
}

// reasonCut is the reason of a line that ends in the middle of its
// record: what a crash (or SIGKILL) leaves of the record being written.
const reasonCut = "cut short (synaps stopped while writing it)"

// Damage is one line of a session file that could not be read.
type Damage struct {
	// Line is the 1-based line number.
	Line int
	// Reason says what is wrong with it.
	Reason string
	// before is how many messages were read before it: where the gap is.
	before int
}

// Warnings are what a user should be told about the file: one line per
// damaged line and per repair, each naming the file (and line).
func (d *Data) Warnings() []string {
	var out []string
	for _, dm := range d.Damaged {
		out = append(out, fmt.Sprintf("session file %s line %d: %s; the line was skipped", d.path, dm.Line, dm.Reason))
	}
	for _, r := range d.Repairs {
		out = append(out, fmt.Sprintf("session file %s: %s", d.path, r))
	}
	return out
}

// noSessionFile is the error for a session file that is not there.
func noSessionFile(path string) error {
	return fmt.Errorf("no session file %s; `synaps sessions list` shows the sessions there are", path)
}

// Exists reports, as an error Read would give, a session id of baseDir
// whose file is not there: a front-end checks --resume before it starts
// anything.
func Exists(baseDir, id string) error {
	path := filepath.Join(Dir(baseDir), id+".jsonl")
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return noSessionFile(path)
	}
	return nil
}

// Read parses a session file. It reads record by record, so memory stays
// bounded by the largest record, not the file.
func Read(path string) (*Data, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, noSessionFile(path)
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	d := &Data{path: path}
	var raw []llm.Message
	br := bufio.NewReaderSize(f, 64<<10)
	for n := 1; ; n++ {
		line, size, eof, err := readLine(br, MaxRecord)
		if err != nil {
			return nil, fmt.Errorf("reading %s: %w", path, err)
		}
		if size == 0 && eof {
			break
		}
		if line == nil {
			d.Damaged = append(d.Damaged, Damage{Line: n, before: len(raw),
				Reason: fmt.Sprintf("a record of %d bytes, more than the %d a record may hold", size, MaxRecord)})
		} else if len(bytes.TrimSpace(line)) > 0 {
			if reason := d.add(line, &raw); reason != "" {
				d.Damaged = append(d.Damaged, Damage{Line: n, Reason: reason, before: len(raw)})
			}
		}
		if eof {
			break
		}
	}
	d.Skipped = len(d.Damaged)
	if d.Header.ID == "" {
		return nil, fmt.Errorf("%s is not a synaps session (no header record)", path)
	}
	d.Messages, d.Repairs = repair(raw, d.Damaged)
	return d, nil
}

// add reads one line as a record; it returns why the line is not one.
func (d *Data) add(line []byte, raw *[]llm.Message) string {
	var r Record
	if err := json.Unmarshal(line, &r); err != nil || r.V == 0 || r.Type == "" {
		var syn *json.SyntaxError
		if errors.As(err, &syn) && syn.Offset >= int64(len(bytes.TrimRight(line, "\r\n"))) {
			return reasonCut
		}
		if err != nil {
			return "not a record (" + err.Error() + ")"
		}
		return "not a record (no version or type)"
	}
	if r.Type == TypeCallReport {
		d.Reports = append(d.Reports, CallRecord{Agent: r.Agent, ToolUseID: r.ToolUseID, Report: r.Report})
		return ""
	}
	if r.Agent != "" {
		d.addSubagent(&r)
		return ""
	}
	switch r.Type {
	case TypeHeader:
		d.Header = r
	case TypeMessage:
		if r.Message != nil {
			*raw = append(*raw, *r.Message)
		}
		if d.Title == "" {
			d.Title = r.Title
		}
		if r.Usage != nil {
			d.Usage = d.Usage.Add(r.Usage.llm())
		}
	case TypeCompaction:
		rc := r
		d.Compaction = &rc
	case TypeModel:
		d.Model = r.Model
	case TypeDeferred:
		rc := r
		d.Deferred = &rc
	}
	return ""
}

// addSubagent files a record of a subagent under it; a message whose
// "subagent" record was lost (a damaged line) still lands under its id.
func (d *Data) addSubagent(r *Record) {
	sa := d.Subagent(r.Agent)
	if sa == nil {
		sa = &Subagent{ID: r.Agent}
		d.Subagents = append(d.Subagents, sa)
	}
	switch r.Type {
	case TypeSubagent:
		sa.Type, sa.ParentToolUseID, sa.Description = r.AgentType, r.ParentToolUseID, r.Description
	case TypeMessage:
		if r.Message != nil {
			sa.Messages = append(sa.Messages, *r.Message)
		}
		if r.Usage != nil {
			sa.Usage = sa.Usage.Add(r.Usage.llm())
			d.Usage = d.Usage.Add(r.Usage.llm())
		}
	}
}

// readLine returns the next line, with its '\n' when it has one, its
// length, and whether it was the last. A line longer than limit is read
// to its end but not kept (line is nil): memory stays bounded by limit.
func readLine(br *bufio.Reader, limit int) (line []byte, size int, eof bool, err error) {
	for {
		chunk, err := br.ReadSlice('\n')
		size += len(chunk)
		if size <= limit+1 { // +1: the newline
			line = append(line, chunk...)
		} else {
			line = nil
		}
		switch {
		case err == nil:
			return line, size, false, nil
		case errors.Is(err, io.EOF):
			return line, size, true, nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		default:
			return nil, size, false, err
		}
	}
}
