package cli

import (
	"context"
	"errors"
)

func startTUI(context.Context, *globals, Stdio) error {
	return errors.New("the interactive UI is not built yet; use `synaps chat` or `synaps -p PROMPT`")
}
