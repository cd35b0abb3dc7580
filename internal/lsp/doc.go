// Package lsp runs the language servers Claude Code plugins declare
// (.lsp.json in a plugin's root, or "lspServers" in its manifest) and
// asks them what an edit broke: after the edit and write tools change a
// file, the new errors its server reports reach the model with the
// tool's result.
//
// Design notes.
//
//   - Config (config.go) is Claude Code's: command, args, env,
//     extensionToLanguage, initializationOptions, settings,
//     workspaceFolder, startupTimeout, shutdownTimeout, restartOnCrash,
//     maxRestarts; transport "stdio" only. A server that cannot be used
//     is an error naming the file, the server and the field.
//   - A server starts lazily (manager.go), at the first edit of a file it
//     serves, under the sandbox policy of its plugin as MCP stdio servers
//     are, with the same short environment plus its env. It is ended at
//     the session's end (shutdown, exit, then its process group killed).
//   - The client (client.go) speaks JSON-RPC with Content-Length framing
//     over the server's stdin and stdout through internal/jsonrpc. It
//     sends whole documents (didOpen, then didChange with the full text;
//     didSave when the server asks for it) and waits, briefly, for the
//     publishDiagnostics that names the version it sent.
//   - Only new errors are reported (diagnostics.go): a file's errors
//     before the change are the baseline — what the last report was
//     measured by, or, for a file not yet open, what the server
//     publishes for the text before the edit — compared by message, code and source, not by
//     line. Warnings and hints are left out; at most MaxShown errors are
//     listed. A server that publishes nothing within the wait costs the
//     wait and adds nothing; that report's baseline is kept, so what it
//     brought is new at the next edit answered in time.
//   - A server that fails to start is said once; one that exits is
//     started again at the next edit, maxRestarts times at most.
package lsp
