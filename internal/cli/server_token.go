package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/synaps-cli/synaps/internal/server"
)

// ServerTokenEnv is the variable `synaps server` takes its token from when
// no --token-file is given. A process's environment is readable only by
// its own user (/proc/PID/environ is 0400), unlike its command line.
const ServerTokenEnv = "SYNAPS_SERVER_TOKEN"

// errTokenOnCommandLine refuses `--token T`: every local user reads a
// process's arguments in /proc/PID/cmdline (and ps), and whoever has the
// token drives the session and its bash.
var errTokenOnCommandLine = usageError{errors.New("--token is refused: a token on the command line is visible to every user of this machine (ps, /proc/PID/cmdline), and whoever has it drives the session and its bash. " +
	"Put it in a file only you can read and pass --token-file PATH (chmod 600 PATH), or set $" + ServerTokenEnv + "; without either, synaps server makes one and writes it to a 0600 file it names")}

// serverToken is the token of `synaps server` and where it came from:
// --token-file, else $SYNAPS_SERVER_TOKEN, else a new random one written
// to a 0600 file under the base directory (file is then that file, for
// the caller to remove at exit). A warning for stderr is returned when
// the token file can be read by others.
type serverToken struct {
	token string
	// generated is the file a generated token was written to ("" when
	// the token came from the user).
	generated string
	warning   string
}

// resolveServerToken finds the token; port names a generated token's file
// (one server per port, so a script knows where to look).
func resolveServerToken(tokenFile string, getenv func(string) string, base string, port int) (serverToken, error) {
	if tokenFile != "" {
		return readTokenFile(tokenFile)
	}
	if t := strings.TrimSpace(getenv(ServerTokenEnv)); t != "" {
		return serverToken{token: t}, nil
	}
	t, err := server.NewToken()
	if err != nil {
		return serverToken{}, err
	}
	path, err := writeTokenFile(filepath.Join(base, "server"), port, t)
	if err != nil {
		return serverToken{}, err
	}
	return serverToken{token: t, generated: path}, nil
}

// maxTokenFile bounds what --token-file reads: a token, not a log file.
const maxTokenFile = 4096

func readTokenFile(path string) (serverToken, error) {
	f, err := os.Open(path)
	if err != nil {
		return serverToken{}, usageError{fmt.Errorf("--token-file %s: %v; give a file holding the token, or set $%s", path, err, ServerTokenEnv)}
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxTokenFile+1))
	if err != nil {
		return serverToken{}, usageError{fmt.Errorf("--token-file %s: %v", path, err)}
	}
	if len(data) > maxTokenFile {
		return serverToken{}, usageError{fmt.Errorf("--token-file %s: over %d bytes; the file must hold only the token", path, maxTokenFile)}
	}
	t := strings.TrimSpace(string(data))
	if t == "" {
		return serverToken{}, usageError{fmt.Errorf("--token-file %s is empty; write the token into it (e.g. openssl rand -hex 24 > %s)", path, path)}
	}
	if strings.ContainsAny(t, "\r\n") {
		return serverToken{}, usageError{fmt.Errorf("--token-file %s holds more than one line; the file must hold only the token", path)}
	}
	st := serverToken{token: t}
	if info, err := f.Stat(); err == nil && info.Mode().Perm()&0o077 != 0 {
		st.warning = fmt.Sprintf("warning: the token file %s can be read by other users (mode %04o); chmod 600 %s", path, info.Mode().Perm(), path)
	}
	return st, nil
}

// writeTokenFile writes a generated token to dir/PORT.token, readable by
// this user only, replacing a stale one of an earlier run on the port.
func writeTokenFile(dir string, port int, token string) (string, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("cannot write the server token under %s: %w; pass --token-file PATH or set $%s", dir, err, ServerTokenEnv)
	}
	path := filepath.Join(dir, strconv.Itoa(port)+".token")
	tmp, err := os.CreateTemp(dir, ".token-*")
	if err != nil {
		return "", fmt.Errorf("cannot write the server token under %s: %w; pass --token-file PATH or set $%s", dir, err, ServerTokenEnv)
	}
	// CreateTemp makes the file 0600; say so in case that ever changes.
	err = tmp.Chmod(0o600)
	if err == nil {
		_, err = tmp.WriteString(token + "\n")
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return "", fmt.Errorf("cannot write the server token to %s: %w; pass --token-file PATH or set $%s", path, err, ServerTokenEnv)
	}
	return path, nil
}

// removeTokenFile removes a generated token's file at exit, unless another
// server has written its own there since.
func removeTokenFile(path, token string) {
	if data, err := os.ReadFile(path); err == nil && strings.TrimSpace(string(data)) == token {
		os.Remove(path)
	}
}
