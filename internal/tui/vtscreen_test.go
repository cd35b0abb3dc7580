package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/google/go-cmp/cmp"
)

// vtScreen is the little of a terminal that BenchmarkTUIReady needs to
// know what a program's output shows: text, the cursor moves and erases
// Bubble Tea's renderer writes, scrolling at the bottom. Colours, modes
// and queries are ignored, and every rune takes one cell. The renderer
// rewrites only the cells that change, so the raw output of a frame need
// not hold its text in one piece; the screen does.
type vtScreen struct {
	rows     [][]rune
	row, col int
	last     rune // the last printed, for REP
	p        *ansi.Parser
}

func newVTScreen(cols, rows int) *vtScreen {
	s := &vtScreen{rows: make([][]rune, rows)}
	for i := range s.rows {
		s.rows[i] = blankRow(cols)
	}
	s.p = ansi.NewParser()
	s.p.SetHandler(ansi.Handler{Print: s.print, Execute: s.execute, HandleCsi: s.csi})
	return s
}

func blankRow(cols int) []rune { return []rune(strings.Repeat(" ", cols)) }

func (s *vtScreen) Write(b []byte) { s.p.Parse(b) }

// String is the screen's text, one line a row, trailing blanks cut.
func (s *vtScreen) String() string {
	var b strings.Builder
	for _, r := range s.rows {
		b.WriteString(strings.TrimRight(string(r), " "))
		b.WriteByte('\n')
	}
	return b.String()
}

func (s *vtScreen) cols() int { return len(s.rows[0]) }

func (s *vtScreen) print(r rune) {
	if s.col >= s.cols() { // autowrap
		s.col = 0
		s.lineFeed()
	}
	s.rows[s.row][s.col] = r
	s.col++
	s.last = r
}

func (s *vtScreen) lineFeed() {
	if s.row == len(s.rows)-1 {
		s.rows = append(s.rows[1:], blankRow(s.cols()))
		return
	}
	s.row++
}

func (s *vtScreen) execute(b byte) {
	switch b {
	case '\r':
		s.col = 0
	case '\n', '\v', '\f':
		s.lineFeed()
	case '\b':
		s.col = max(s.col-1, 0)
	case '\t':
		s.col = min((s.col/8+1)*8, s.cols()-1)
	}
}

func (s *vtScreen) csi(cmd ansi.Cmd, params ansi.Params) {
	if cmd.Prefix() != 0 || cmd.Intermediate() != 0 {
		return // private modes, queries
	}
	n, _, _ := params.Param(0, 1)
	n = max(n, 1)
	clampRow := func(r int) int { return min(max(r, 0), len(s.rows)-1) }
	clampCol := func(c int) int { return min(max(c, 0), s.cols()-1) }
	switch cmd.Final() {
	case 'A':
		s.row = clampRow(s.row - n)
	case 'B', 'e':
		s.row = clampRow(s.row + n)
	case 'C', 'a':
		s.col = clampCol(s.col + n)
	case 'D':
		s.col = clampCol(s.col - n)
	case 'E':
		s.row, s.col = clampRow(s.row+n), 0
	case 'F':
		s.row, s.col = clampRow(s.row-n), 0
	case 'G', '`':
		s.col = clampCol(n - 1)
	case 'd':
		s.row = clampRow(n - 1)
	case 'H', 'f':
		c, _, _ := params.Param(1, 1)
		s.row, s.col = clampRow(n-1), clampCol(max(c, 1)-1)
	case 'J':
		mode, _, _ := params.Param(0, 0)
		switch mode {
		case 0:
			s.eraseLine(0)
			for r := s.row + 1; r < len(s.rows); r++ {
				s.rows[r] = blankRow(s.cols())
			}
		case 1:
			s.eraseLine(1)
			for r := 0; r < s.row; r++ {
				s.rows[r] = blankRow(s.cols())
			}
		case 2, 3:
			for r := range s.rows {
				s.rows[r] = blankRow(s.cols())
			}
		}
	case 'K':
		mode, _, _ := params.Param(0, 0)
		s.eraseLine(mode)
	case 'I': // n tab stops forward (every 8 columns)
		for range n {
			s.col = min((s.col/8+1)*8, s.cols()-1)
		}
	case 'Z': // n tab stops back
		for range n {
			s.col = max((s.col-1)/8*8, 0)
		}
	case 'X':
		for c := s.col; c < min(s.col+n, s.cols()); c++ {
			s.rows[s.row][c] = ' '
		}
	case 'P': // delete n cells, the rest of the row moves left
		line := s.rows[s.row]
		n = min(n, len(line)-s.col)
		copy(line[s.col:], line[s.col+n:])
		copy(line[len(line)-n:], blankRow(n))
	case '@': // insert n blank cells, the rest moves right
		line := s.rows[s.row]
		n = min(n, len(line)-s.col)
		copy(line[s.col+n:], line[s.col:len(line)-n])
		copy(line[s.col:], blankRow(n))
	case 'L': // insert n blank rows at the cursor's, the rest moves down
		n = min(n, len(s.rows)-s.row)
		rest := append([][]rune(nil), s.rows[s.row:len(s.rows)-n]...)
		for i := range n {
			s.rows[s.row+i] = blankRow(s.cols())
		}
		copy(s.rows[s.row+n:], rest)
	case 'M': // delete n rows, the rest moves up
		n = min(n, len(s.rows)-s.row)
		copy(s.rows[s.row:], s.rows[s.row+n:])
		for r := len(s.rows) - n; r < len(s.rows); r++ {
			s.rows[r] = blankRow(s.cols())
		}
	case 'b': // repeat the last printed rune
		for range n {
			s.print(s.last)
		}
	}
}

// eraseLine erases the cursor's row: from the cursor (0), up to it (1),
// all of it (2).
func (s *vtScreen) eraseLine(mode int) {
	line := s.rows[s.row]
	from, to := s.col, len(line)
	switch mode {
	case 1:
		from, to = 0, s.col+1
	case 2:
		from = 0
	}
	for c := from; c < min(to, len(line)); c++ {
		line[c] = ' '
	}
}

// TestVTScreen: what a frame shows, from output the program wrote (a
// status line rewritten in part, with a query and a backspace in it).
func TestVTScreen(t *testing.T) {
	for _, c := range []struct {
		name, out string
		want      []string // the screen's first lines
	}{
		{"text and line feeds", "ab\r\ncd", []string{"ab", "cd"}},
		{"a line rewritten in part", "hello\rj\x1b[2Cx\x1b[Kyz", []string{"jelxyz"}},
		{"cursor up, erase below", "one\r\ntwo\r\nthree\x1b[A\r\x1b[J2", []string{"one", "2"}},
		{"absolute moves", "\x1b[2;3Hb\x1b[1Ga\x1b[H!", []string{"!", "a b"}},
		{"a status line redrawn from the starting one",
			"\x1b[35m› \x1b[37;7mA\x1b[39;27;2msk anything\x1b[m\r\n\x1b[35m⠋\x1b[m starting\x1b[2m · you can type meanwhile\x1b[m\r" +
				"\x1b[A\x1b[J\x1b[35m› \x1b[37;7mA\x1b[39;27;2msk anything\x1b[m\r\n\x1b[2mscript:x · t…\x1b[m\x1b]11;?\a\b\x1b[2mokens 0 in / 0 out ·…\x1b[m\r",
			[]string{"› Ask anything", "script:x · tokens 0 in / 0 out ·…"}},
		{"cells deleted and inserted", "abcdef\r\x1b[C\x1b[2P\x1b[2@x", []string{"ax def"}},
		{"rows inserted and deleted", "1\r\n2\r\n3\x1b[2;1H\x1b[Lx\x1b[H\x1b[M", []string{"x", "2", ""}},
		{"tab stops back and forward", "\tabcdefghij\x1b[Zx\x1b[2Zy\x1b[Iz", []string{"        ybcdefghzj"}},
		{"a rune repeated", "x\x1b[3b", []string{"xxxx"}},
		{"scrolls at the bottom", "1\r\n2\r\n3\r\n4", []string{"2", "3", "4"}},
		{"wraps at the right edge", "abcdefghij", []string{"abcdefgh", "ij"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := newVTScreen(8, 3)
			if strings.HasPrefix(c.name, "a status") || strings.HasPrefix(c.name, "tab") {
				s = newVTScreen(40, 3)
			}
			s.Write([]byte(c.out))
			got := strings.Split(s.String(), "\n")[:len(c.want)]
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Errorf("screen (-want +got):\n%s", diff)
			}
		})
	}
}
