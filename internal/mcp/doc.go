// Package mcp runs the Model Context Protocol servers a user already has
// configured (for Claude Code, Cursor or synaps itself) and serves synaps's
// own tools to MCP clients. It is the only package that imports the MCP
// go-sdk: everything the rest of synaps sees is a tool.Tool in the one tool
// registry, so an MCP tool passes the same hook chain as any other tool.
//
// Design notes.
//
//   - Config (config.go) is read from every source in a fixed order, later
//     wins per server name; each server remembers the file it came from, so
//     `synaps mcp list` can say where to edit it. Variables (${VAR},
//     ${VAR:-default}, ${env:VAR}) are expanded when a server starts, so a
//     missing variable fails that server only, with an error naming the
//     server, the field and the file.
//   - Start (manager.go) never blocks: each server connects in its own
//     goroutine and its tools enter the registry when it is ready. A
//     server that fails keeps its error and the tail of its stderr for
//     `/mcp` and `synaps mcp list`.
//   - Tool names (name.go) follow Claude Code's mcp__<server>__<tool>, so
//     hook matchers written for Claude keep working.
//   - A stdio server gets a scrubbed environment (env.go): the same short
//     pass-through list extensions get plus what its config's env names.
//   - tools/list_changed refreshes a server's tools (off the SDK's reading
//     goroutine); a session that ends while in use (the server exited)
//     makes the server failed and takes its tools away.
//   - Close ends a stdio server with the SDK's sequence (close stdin, wait,
//     SIGTERM, wait, SIGKILL) with a 1 s step instead of the SDK's 5 s, then
//     kills what is left of its process group.
package mcp
