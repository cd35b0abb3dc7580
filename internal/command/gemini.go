package command

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/synaps-cli/synaps/internal/safefile"
	"github.com/synaps-cli/synaps/internal/tomlite"
)

// Gemini CLI's commands are TOML files: prompt (required) and
// description. commands/git/commit.toml is /git:commit. The prompt may
// hold {{args}} (what the user typed after the command), !{cmd} (a shell
// command whose output takes its place) and @{path} (a file's content).
// Expanding one is done in a single pass over the file's text, so what a
// file, a command or the arguments bring in is never read again as
// {{args}}, !{…} or @{…}:
//
//   - {{args}} outside !{…} is the arguments as typed; inside, they are
//     one shell word, quoted for where they stand, never code;
//   - !{cmd} runs through Env.Bash, as the model's bash call runs (the
//     hook chain, permission rules and mode, sandbox): a command file is
//     text anyone can ship;
//   - @{path} is read from the project under the Read rules (Env.DenyRead);
//     @{dir} is the directory's text files, within bounds;
//   - a prompt without {{args}} gets the whole invocation appended after
//     a blank line when arguments were given, as Gemini CLI does.

// LoadTOML reads the Gemini CLI commands (*.toml) in dir and its
// subdirectories. A file that is not TOML or has no prompt is a warning
// naming it; the others load.
func LoadTOML(dir, plugin, source string) ([]Command, []string) {
	var out []Command
	var warnings []string
	_ = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if path != dir {
				warnings = append(warnings, fmt.Sprintf("%s: %v", path, err))
			}
			return nil
		}
		if d.IsDir() || !strings.EqualFold(filepath.Ext(path), ".toml") {
			return nil
		}
		c, err := ParseTOML(path)
		if err != nil {
			warnings = append(warnings, err.Error())
			return nil
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil || path == dir {
			rel = filepath.Base(path)
		}
		c.Name = strings.ReplaceAll(filepath.ToSlash(strings.TrimSuffix(rel, filepath.Ext(rel))), "/", ":")
		c.Plugin, c.Source = plugin, source
		out = append(out, c)
		return nil
	})
	return out, warnings
}

// ParseTOML reads one Gemini CLI command file.
func ParseTOML(path string) (Command, error) {
	data, err := safefile.ReadAll(path, maxFile)
	if err != nil {
		return Command{}, err
	}
	doc, err := tomlite.Parse(string(data))
	if err != nil {
		return Command{}, fmt.Errorf("%s: %v; a Gemini CLI command is TOML with prompt = \"…\"", path, err)
	}
	prompt, ok := doc["prompt"].(string)
	if !ok {
		return Command{}, fmt.Errorf(`%s: no "prompt" string; a Gemini CLI command needs prompt = """…"""`, path)
	}
	c := Command{Name: strings.TrimSuffix(filepath.Base(path), filepath.Ext(path)), File: path, Gemini: true, body: prompt}
	c.Description, _ = doc["description"].(string)
	if c.Description == "" {
		c.Description = firstLine(prompt)
	}
	return c, nil
}

// expandGemini is Expand for a Gemini CLI command.
func (c *Command) expandGemini(ctx context.Context, args string, env Env) string {
	src := c.body
	var b strings.Builder
	for i := 0; i < len(src); {
		// Plain text up to the next place a placeholder may start, at once.
		if n := strings.IndexAny(src[i:], "{!@"); n != 0 {
			if n < 0 {
				n = len(src) - i
			}
			b.WriteString(src[i : i+n])
			i += n
			continue
		}
		rest := src[i:]
		switch {
		case strings.HasPrefix(rest, "{{args}}"):
			b.WriteString(args)
			i += len("{{args}}")
		case strings.HasPrefix(rest, "!{") || strings.HasPrefix(rest, "@{"):
			end := closingBrace(src, i+2)
			if end < 0 {
				b.WriteString(rest) // unbalanced: text, as written
				i = len(src)
				continue
			}
			inner := src[i+2 : end]
			if rest[0] == '!' {
				b.WriteString(run(ctx, geminiShellArgs(inner, args), env))
			} else {
				b.WriteString(includeFile(strings.TrimSpace(inner), env))
			}
			i = end + 1
		default:
			b.WriteByte(src[i])
			i++
		}
	}
	text := b.String()
	if !strings.Contains(src, "{{args}}") && strings.TrimSpace(args) != "" {
		text = strings.TrimRight(text, "\n") + "\n\n/" + c.Name + " " + args
	}
	return text
}

// closingBrace is the index of the } that closes a brace opened just
// before from, counting nested braces; -1 when there is none.
func closingBrace(s string, from int) int {
	depth := 1
	for i := from; i < len(s); i++ {
		switch s[i] {
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// geminiShellArgs puts the arguments into a !{…} line as one shell word,
// quoted for the quotes {{args}} stands in.
func geminiShellArgs(line, args string) string {
	var b strings.Builder
	var quote byte // 0, '\'' or '"'
	for i := 0; i < len(line); i++ {
		if strings.HasPrefix(line[i:], "{{args}}") {
			switch quote {
			case 0:
				b.WriteString(shellWord(args))
			default:
				b.WriteString(quoteIn(quote, args))
			}
			i += len("{{args}}") - 1
			continue
		}
		ch := line[i]
		switch {
		case ch == '\\' && quote != '\'' && i+1 < len(line):
			b.WriteByte(ch)
			i++
			ch = line[i]
		case quote == 0 && (ch == '\'' || ch == '"'):
			quote = ch
		case quote != 0 && ch == quote:
			quote = 0
		}
		b.WriteByte(ch)
	}
	return b.String()
}

// includeFile is what @{path} becomes: the file's text, or a line saying
// why it is not there.
func includeFile(p string, env Env) string {
	full := p
	if !filepath.IsAbs(full) {
		full = filepath.Join(env.WorkDir, p)
	}
	if env.DenyRead != nil {
		if why := env.DenyRead(full); why != "" {
			return fmt.Sprintf("(@{%s} is not included: %s)", p, why)
		}
	}
	if fi, err := os.Stat(full); err == nil && fi.IsDir() {
		return includeDir(p, full, env)
	}
	data, cut, err := safefile.Read(full, maxInclude)
	if err != nil {
		return fmt.Sprintf("(@{%s} is not included: %v)", p, err)
	}
	if bytes.IndexByte(data, 0) >= 0 {
		return fmt.Sprintf("(@{%s} is not included: not a text file)", p)
	}
	if cut {
		data = append(data, []byte("\n… (cut: the file is larger)")...)
	}
	return string(data)
}

// Bounds of an @{dir}: Gemini CLI includes a directory's files; synaps
// does too, up to these, skipping hidden entries.
const (
	maxDirFiles = 50
	maxDirBytes = 4 * maxInclude
)

// includeDir is what @{dir} becomes: each text file under it (not
// hidden, allowed by the Read rules) in a <file> block, in path order,
// within maxDirFiles and maxDirBytes; what was left out is said.
func includeDir(p, dir string, env Env) string {
	var b strings.Builder
	files, total, skipped := 0, 0, 0
	_ = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if path != dir && strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.IsDir() || !d.Type().IsRegular() {
			return nil
		}
		if files >= maxDirFiles || total >= maxDirBytes {
			skipped++
			return nil
		}
		if env.DenyRead != nil && env.DenyRead(path) != "" {
			skipped++
			return nil
		}
		data, cut, err := safefile.Read(path, maxInclude)
		if err != nil || bytes.IndexByte(data, 0) >= 0 {
			return nil // not a text file
		}
		if cut {
			data = append(data, []byte("\n… (cut: the file is larger)")...)
		}
		rel, _ := filepath.Rel(env.WorkDir, path)
		fmt.Fprintf(&b, "<file path=%q>\n%s\n</file>\n", filepath.ToSlash(rel), strings.TrimRight(string(data), "\n"))
		files++
		total += len(data)
		return nil
	})
	if skipped > 0 {
		fmt.Fprintf(&b, "(@{%s}: %d more files not included: past %d files or %d bytes, or denied by the Read rules)\n", p, skipped, maxDirFiles, maxDirBytes)
	}
	if files == 0 && skipped == 0 {
		return fmt.Sprintf("(@{%s} holds no text files)", p)
	}
	return strings.TrimRight(b.String(), "\n")
}
