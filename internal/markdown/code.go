package markdown

import (
	"strings"
	"sync"

	"github.com/yuin/goldmark/ast"
)

// code draws a code block line for line, indented two cells; a line
// wider than the room is cut, never reflowed (code's line breaks are
// meaning). With colour, a small highlighter marks comments, strings,
// numbers and keywords; it knows no grammar, only the shapes most
// languages share, which is what a reader skims for.
func (r *renderer) code(n ast.Node, lang string, w int) []string {
	const indent = "  "
	var out []string
	lines := n.Lines()
	for i := 0; i < lines.Len(); i++ {
		seg := lines.At(i)
		line := strings.TrimRight(string(seg.Value(r.src)), "\r\n")
		line = strings.ReplaceAll(line, "\t", "    ")
		for _, part := range hardwrap(line, w-len(indent)) {
			if r.th.Color {
				part = highlight(part, lang, r.th)
			}
			out = append(out, strings.TrimRight(indent+part, " "))
		}
	}
	return out
}

// lineComment is how a comment starts in a language, by fence name.
func lineComment(lang string) []string {
	switch strings.ToLower(lang) {
	case "sh", "bash", "zsh", "shell", "console", "python", "py", "ruby", "rb", "yaml", "yml", "toml", "perl", "r", "make", "makefile", "dockerfile", "ini", "conf", "nix":
		return []string{"#"}
	case "sql", "lua", "haskell", "hs":
		return []string{"--"}
	case "lisp", "clojure", "scheme", "elisp", "asm":
		return []string{";"}
	case "", "text", "txt", "plain", "markdown", "md", "diff", "json":
		return nil
	}
	return []string{"//", "#"}
}

// keywords are the reserved words of the common languages; a word in
// this set is marked in any of them, which is close enough for skimming.
// Built on first use, not at package init.
var keywords = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`
		break case chan const continue default defer else fallthrough for func go goto if import interface map package range return select struct switch type var
		and as assert async await class def del elif except finally from global in is lambda nonlocal not or pass raise try while with yield None True False
		let function new this typeof instanceof void delete throw catch export extends static super null undefined true false
		fn impl mut pub use mod crate trait enum match loop where self Self unsafe move ref dyn
		do done then fi esac echo local readonly
		public private protected final abstract int long double float char bool boolean string byte`) {
		m[w] = true
	}
	return m
})

// highlight colours one line of code.
func highlight(line, lang string, th Theme) string {
	comments := lineComment(lang)
	base := style{fg: th.CodeBlock}
	var b strings.Builder
	word := func(s string) {
		switch {
		case keywords()[s]:
			b.WriteString(style{fg: th.Keyword}.paint(s))
		case s[0] >= '0' && s[0] <= '9':
			b.WriteString(style{fg: th.Number}.paint(s))
		default:
			b.WriteString(base.paint(s))
		}
	}
	i := 0
	for i < len(line) {
		c := line[i]
		if lang != "" && comments != nil {
			for _, cm := range comments {
				if strings.HasPrefix(line[i:], cm) && (i == 0 || cm != "#" || line[i-1] == ' ' || line[i-1] == '\t') {
					b.WriteString(style{fg: th.Comment, italic: true}.paint(line[i:]))
					return b.String()
				}
			}
		}
		switch {
		case lang != "" && (c == '"' || c == '\'' || c == '`'):
			j := i + 1
			for j < len(line) && line[j] != c {
				if line[j] == '\\' {
					j++
				}
				j++
			}
			j = min(j+1, len(line))
			b.WriteString(style{fg: th.String}.paint(line[i:j]))
			i = j
		case isWordByte(c):
			j := i
			for j < len(line) && isWordByte(line[j]) {
				j++
			}
			if lang != "" {
				word(line[i:j])
			} else {
				b.WriteString(base.paint(line[i:j]))
			}
			i = j
		default:
			j := i
			for j < len(line) && !isWordByte(line[j]) && (lang == "" || (line[j] != '"' && line[j] != '\'' && line[j] != '`' && !startsComment(line, j, comments))) {
				j++
			}
			if j == i {
				j = i + 1
			}
			b.WriteString(base.paint(line[i:j]))
			i = j
		}
	}
	return b.String()
}

func startsComment(line string, i int, comments []string) bool {
	for _, cm := range comments {
		if strings.HasPrefix(line[i:], cm) {
			return true
		}
	}
	return false
}

func isWordByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}
