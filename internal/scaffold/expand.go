package scaffold

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
)

// expand fills in a scaffold template. It knows the two actions the
// templates use: {{.Key}} is replaced by data[Key], and
// {{if .Key}}…{{end}} keeps its body only when data[Key] is not empty
// (not nested). It renders what text/template would (a test holds the
// two equal), but text/template is not linked into synaps: its field
// lookup calls reflect's MethodByName, and once that is reachable the
// linker keeps every exported method of every type in the binary —
// about 5 MB of synaps's 28.
func expand(name string, src []byte, data map[string]string) ([]byte, error) {
	var out bytes.Buffer
	skip := false // inside an {{if}} whose value is empty
	inIf := false // inside an {{if}} at all
	ifLine := 0   // where that {{if}} is, for the error about a missing {{end}}
	line := 1
	for len(src) > 0 {
		i := bytes.Index(src, []byte("{{"))
		if i < 0 {
			if !skip {
				out.Write(src)
			}
			break
		}
		if !skip {
			out.Write(src[:i])
		}
		line += bytes.Count(src[:i], []byte("\n"))
		src = src[i+2:]
		j := bytes.Index(src, []byte("}}"))
		if j < 0 {
			return nil, fmt.Errorf("%s:%d: {{ without }}", name, line)
		}
		action := strings.TrimSpace(string(src[:j]))
		src = src[j+2:]
		value := func(ref string) (string, error) {
			key, ok := strings.CutPrefix(ref, ".")
			v, found := data[key]
			if !ok || !found {
				return "", fmt.Errorf("%s:%d: {{%s}}: not a value of the scaffold (have %s)", name, line, action, keys(data))
			}
			return v, nil
		}
		switch {
		case action == "end":
			if !inIf {
				return nil, fmt.Errorf("%s:%d: {{end}} without {{if}}", name, line)
			}
			inIf, skip = false, false
		case strings.HasPrefix(action, "if "):
			if inIf {
				return nil, fmt.Errorf("%s:%d: {{if}} inside the {{if}} of line %d: not supported", name, line, ifLine)
			}
			v, err := value(strings.TrimSpace(strings.TrimPrefix(action, "if ")))
			if err != nil {
				return nil, err
			}
			inIf, skip, ifLine = true, v == "", line
		default:
			v, err := value(action)
			if err != nil {
				return nil, err
			}
			if !skip {
				out.WriteString(v)
			}
		}
	}
	if inIf {
		return nil, fmt.Errorf("%s:%d: {{if}} without {{end}}", name, ifLine)
	}
	return out.Bytes(), nil
}

// keys lists data's keys as {{.Key}} references, sorted, for errors.
func keys(data map[string]string) string {
	var ks []string
	for k := range data {
		ks = append(ks, "."+k)
	}
	slices.Sort(ks)
	return strings.Join(ks, " ")
}
