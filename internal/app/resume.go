package app

import (
	"errors"
	"fmt"

	"github.com/synaps-cli/synaps/internal/plural"
	"github.com/synaps-cli/synaps/internal/session"
)

// resumeTarget is the ID of the session --resume or --continue names,
// "" for a new session. Open asks it before it starts anything.
func (a *App) resumeTarget() (string, error) {
	id, err := session.Resolve(a.BaseDir, a.opts.Resume)
	if err != nil {
		return "", fmt.Errorf("--resume: %w", err)
	}
	if a.opts.Continue && id == "" {
		latest, warnings, err := session.LatestIn(a.BaseDir, a.WorkDir)
		for _, w := range warnings {
			a.Notes = append(a.Notes, "warning: "+w)
		}
		if err != nil {
			return "", err
		}
		if latest == "" {
			return "", a.nothingToContinue()
		}
		id = latest
	}
	if id != "" {
		if err := session.Exists(a.BaseDir, id); err != nil {
			return "", fmt.Errorf("--resume: %w", err)
		}
	}
	return id, nil
}

// resumeSession opens the session resumeTarget found, if any; a new
// session is created once the model is known (Open).
func (a *App) resumeSession() error {
	id := a.resumeID
	if id == "" {
		return nil
	}
	var err error
	if a.Session, err = session.Open(a.BaseDir, id); err != nil {
		return err
	}
	a.Notes = append(a.Notes, a.Session.Warnings...)
	a.Notes = append(a.Notes, fmt.Sprintf("resumed session %s (%s)", id, plural.Count(len(a.Session.Messages()), "message")))
	if cwd := a.Session.Cwd(); cwd != "" && !session.SameDir(cwd, a.WorkDir) {
		// Its tools run here now, not where it started: said, so that a
		// bash pwd or a relative path is no surprise.
		a.Notes = append(a.Notes, fmt.Sprintf("session %s was started in %s; its tools now run in %s (cd there to go on in that project)", id, cwd, a.WorkDir))
	}
	return nil
}

// nothingToContinue is --continue's error when the working directory has
// no session: it names the newest session elsewhere, if any, and how to
// resume it.
func (a *App) nothingToContinue() error {
	msg := fmt.Sprintf("--continue: no session was started in %s yet (--continue goes on with this directory's newest session)", a.WorkDir)
	if list, err := session.List(a.BaseDir); err == nil {
		for _, info := range list {
			if info.Error == "" && info.Cwd == "" {
				// An older session that did not record where it started.
				return fmt.Errorf("%s; the newest session is %s: resume it with --resume %s", msg, info.ID, info.ID)
			}
			if info.Error == "" {
				return fmt.Errorf("%s; the newest session, %s, was started in %s: resume it with --resume %s, or cd there and use --continue", msg, info.ID, info.Cwd, info.ID)
			}
		}
	}
	return errors.New(msg)
}
