package hook

import (
	"context"
	"sync"

	"github.com/synaps-cli/synaps/internal/contract"
)

// A link made of parts that answer each on their own — a Claude hooks
// file, whose commands each have an id (`synaps hooks` lists them,
// `synaps hooks disable` takes them) — is reported part by part: a
// report has one entry per command, judged, not matched or could not
// judge, with its own answer. So the ids a report, `synaps why`,
// coverage and required_guards name are the ids the listing names.

// Part is one part of a link for one event.
type Part struct {
	// ID is the part's stable id ("claude:project/PreToolUse/0").
	ID string
	// Selects: the part has something to run for the event (its
	// matcher and `if` cover it).
	Selects bool
}

// Parter is a Link reported part by part. Parts lists its parts for ev
// in order; none: the link is reported as one.
type Parter interface {
	Parts(spec contract.HookSpec, ev *Event) []Part
}

// partsOf collects what a Parter's parts answered in one ask. The link
// may add from its own goroutines, and a walk that gave up on it (its
// deadline) reads while it still could, hence the lock.
type partsOf struct {
	mu    sync.Mutex
	links []LinkReport
}

type partsKey struct{}

// AddPart records what one part of a link answered about the event the
// link is asked about, when a report is being made (else it does
// nothing). Input and Pass are filled in by the chain.
func AddPart(ctx context.Context, lr LinkReport) {
	if p, _ := ctx.Value(partsKey{}).(*partsOf); p != nil {
		p.mu.Lock()
		p.links = append(p.links, lr)
		p.mu.Unlock()
	}
}

// Reporting reports whether the link's parts are asked to say what they
// answered (AddPart), so a link does that work only then.
func Reporting(ctx context.Context) bool {
	return ctx.Value(partsKey{}) != nil
}

func (p *partsOf) take() []LinkReport {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]LinkReport(nil), p.links...)
}

// noteParts is note for a Parter with parts: an entry per part, what it
// said when it said it, else not matched, or (err) the link's fault, or
// the link's answer.
func (w *walk) noteParts(parts []Part, said []LinkReport, base LinkReport, failClosed bool) {
	for _, pt := range parts {
		lr := base
		lr.ID = pt.ID
		found := false
		for _, s := range said {
			if s.ID == pt.ID {
				s.Input, s.Pass = base.Input, base.Pass
				if s.State == StateFailed && failClosed {
					s.Action = "block"
				}
				lr, found = s, true
				break
			}
		}
		if !found && !pt.Selects {
			lr = LinkReport{ID: pt.ID, State: StateNotMatched}
		}
		w.rep.Links = append(w.rep.Links, lr)
	}
}
