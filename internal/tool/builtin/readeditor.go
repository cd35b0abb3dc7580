package builtin

import (
	"bufio"
	"context"
	"fmt"
	"os"
)

// editorReadMax is the most bytes read asks an editor (Options.Files)
// for at once. ACP carries a response as one line, and the SDK's reader
// ends the connection on a line over 10 MB: asking for a whole 22 MB
// file to show 5 of its lines ended the session.
const editorReadMax = 4 << 20

// editorLines asks the editor for the lines read shows: n lines from
// offset, no more (read shows at most limit of them, and no more than
// MaxOutput holds: each takes 8 bytes or more). When the copy on disk
// says those lines are over editorReadMax bytes, the editor is not asked
// and ok is false: read reads the disk, and note says so. A file that
// small in all needs no look.
func (r *readTool) editorLines(ctx context.Context, p string, size int64, offset, limit int) (text string, ok bool, note string, err error) {
	n := min(limit, r.o.MaxOutput/8+1) + 1 // one more: does the file go on?
	if size > editorReadMax {
		if bytes, err := rangeBytes(p, offset, n); err == nil && bytes > editorReadMax {
			return "", false, fmt.Sprintf("[lines %d to %d are %s on disk, more than synaps asks the editor for at once (%s): read from the disk, without unsaved changes in the editor]\n",
				offset, offset+n-1, formatSize(bytes), formatSize(editorReadMax)), nil
		}
	}
	text, err = r.o.Files.ReadLines(ctx, p, offset, n)
	return text, err == nil, "", err
}

// rangeBytes is how many bytes lines [offset, offset+n) of the file at p
// take; it stops counting past editorReadMax.
func rangeBytes(p string, offset, n int) (int64, error) {
	f, err := os.Open(p)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 64<<10)
	var total int64
	for line := 1; line < offset+n; line++ {
		_, size, err := readLine(br, 0, nil)
		if line >= offset {
			total += int64(size) + 1
			if total > editorReadMax {
				return total, nil
			}
		}
		if err != nil {
			break
		}
	}
	return total, nil
}
