package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestKeysHelpMatchesDocs: /help lists every key of docs/keys.md's "All
// keys" table, and docs/keys.md every key /help lists.
func TestKeysHelpMatchesDocs(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(repoRoot(t), "docs", "keys.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(string(b), "## All keys")
	if !ok {
		t.Fatal("docs/keys.md has no \"## All keys\" section")
	}
	table, _, _ = strings.Cut(table, "\n\n\n")
	squash := func(s string) string {
		return strings.ToLower(strings.NewReplacer(" ", "", "`", "").Replace(s))
	}
	help := squash(keysHelp)
	var docKeys []string
	for _, row := range strings.Split(table, "\n") {
		cells := strings.Split(row, "|")
		if len(cells) < 3 || strings.TrimSpace(cells[1]) == "Key" || strings.HasPrefix(strings.TrimSpace(cells[1]), "---") {
			continue
		}
		for _, k := range strings.Split(cells[1], ",") {
			k = squash(k)
			docKeys = append(docKeys, k)
			if !strings.Contains(help, k) {
				t.Errorf("docs/keys.md lists %q, /help does not", k)
			}
		}
	}
	docs := strings.Join(docKeys, " ")
	for _, l := range strings.Split(keysHelp, "\n") {
		if !strings.HasPrefix(l, "  ") || strings.HasPrefix(strings.TrimSpace(l), "@") {
			continue
		}
		col, _, _ := strings.Cut(strings.TrimSpace(l), "  ")
		for _, k := range strings.Fields(col) {
			if !strings.Contains(docs, strings.ToLower(k)) {
				t.Errorf("/help lists %q, the table of docs/keys.md does not", k)
			}
		}
	}
	if len(docKeys) < 10 {
		t.Errorf("read only %d keys from docs/keys.md: %q", len(docKeys), docKeys)
	}
}
