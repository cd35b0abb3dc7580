package markdown

import "slices"

// Theme is the palette an answer is drawn in. Colours are SGR colour
// parameters for 256-colour terminals ("38;5;39"); the caller downsamples
// the output to what the terminal takes. A theme without Color draws no
// SGR at all and keeps the Markdown markers (**bold**, `code`) so that the
// meaning survives in plain text.
type Theme struct {
	Name  string
	Color bool

	Heading   string // h2–h6 foreground
	H1, H1Bg  string // the h1 banner
	Code      string // inline code foreground
	CodeBg    string // inline code background
	CodeBlock string // code block base foreground
	Keyword   string // code block keywords
	String    string // code block strings
	Comment   string // code block comments
	Number    string // code block numbers
	Link      string // link text and bare URLs
	Quote     string // block quote bar and text
	Rule      string // thematic breaks, table borders, list bullets
}

// themes are the styles synaps draws with; the names are glamour's, so a
// GLAMOUR_STYLE set for other tools keeps working where synaps has it.
var themes = map[string]Theme{
	"dark": {
		Name: "dark", Color: true,
		Heading: "38;5;39", H1: "38;5;228", H1Bg: "48;5;63",
		Code: "38;5;203", CodeBg: "48;5;236", CodeBlock: "38;5;251",
		Keyword: "38;5;141", String: "38;5;150", Comment: "38;5;244", Number: "38;5;215",
		Link: "38;5;30", Quote: "38;5;246", Rule: "38;5;240",
	},
	"light": {
		Name: "light", Color: true,
		Heading: "38;5;27", H1: "38;5;228", H1Bg: "48;5;63",
		Code: "38;5;203", CodeBg: "48;5;254", CodeBlock: "38;5;238",
		Keyword: "38;5;91", String: "38;5;28", Comment: "38;5;246", Number: "38;5;166",
		Link: "38;5;36", Quote: "38;5;242", Rule: "38;5;250",
	},
	"dracula": {
		Name: "dracula", Color: true,
		Heading: "38;5;141", H1: "38;5;231", H1Bg: "48;5;61",
		Code: "38;5;215", CodeBg: "48;5;236", CodeBlock: "38;5;231",
		Keyword: "38;5;212", String: "38;5;228", Comment: "38;5;61", Number: "38;5;141",
		Link: "38;5;117", Quote: "38;5;228", Rule: "38;5;61",
	},
	"notty": {Name: "notty"},
	"ascii": {Name: "ascii"},
}

// Named returns the theme called name, and whether there is one.
func Named(name string) (Theme, bool) {
	t, ok := themes[name]
	return t, ok
}

// Names lists the themes, sorted, for help text and errors.
func Names() []string {
	names := make([]string, 0, len(themes))
	for n := range themes {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// style is how one run of text is drawn.
type style struct {
	bold, italic, underline, strike, faint bool
	fg, bg                                 string
}

// sgr is the escape sequence that turns the style on, "" for none.
func (s style) sgr() string {
	var p []byte
	add := func(v string) {
		if len(p) > 0 {
			p = append(p, ';')
		}
		p = append(p, v...)
	}
	if s.bold {
		add("1")
	}
	if s.faint {
		add("2")
	}
	if s.italic {
		add("3")
	}
	if s.underline {
		add("4")
	}
	if s.strike {
		add("9")
	}
	if s.fg != "" {
		add(s.fg)
	}
	if s.bg != "" {
		add(s.bg)
	}
	if len(p) == 0 {
		return ""
	}
	return "\x1b[" + string(p) + "m"
}

// paint draws text in the style; a plain style adds nothing.
func (s style) paint(text string) string {
	on := s.sgr()
	if on == "" || text == "" {
		return text
	}
	return on + text + "\x1b[m"
}
