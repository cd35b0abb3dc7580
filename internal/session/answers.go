package session

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"

	"github.com/synaps-cli/synaps/internal/llm"
)

// ModelAnswers is how many answers the session id holds from the model it
// runs on now: assistant messages, its subagents' included, written since
// its last "model" record (the header's model when there is none).
// CompactedFrom is the session it was compacted from when no model switch
// came since, so a caller can go on counting there; "" otherwise.
//
// A scripted model reads it on resume (internal/app): each line of a
// script it played left one answer, so this is where the script goes on.
// It reads the file record by record; damaged lines are skipped.
func ModelAnswers(baseDir, id string) (answers int, compactedFrom string, err error) {
	f, err := os.Open(filepath.Join(Dir(baseDir), id+".jsonl"))
	if err != nil {
		return 0, "", err
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 64<<10)
	for {
		line, size, eof, err := readLine(br, MaxRecord)
		if err != nil {
			return answers, compactedFrom, err
		}
		if line != nil && size > 0 {
			var r struct {
				Type    string `json:"type"`
				From    string `json:"from"`
				Message *struct {
					Role llm.Role `json:"role"`
				} `json:"message"`
			}
			if json.Unmarshal(line, &r) == nil {
				switch r.Type {
				case TypeModel:
					answers, compactedFrom = 0, ""
				case TypeCompaction:
					compactedFrom = r.From
				case TypeMessage:
					if r.Message != nil && r.Message.Role == llm.RoleAssistant {
						answers++
					}
				}
			}
		}
		if eof {
			break
		}
	}
	return answers, compactedFrom, nil
}
