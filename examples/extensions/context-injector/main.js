#!/usr/bin/env node
// context-injector: a synaps extension (Node.js, no dependencies) that adds
// project context for the model.
//
//   on_session_start  injects a short project summary into the system
//                     prompt: the `notes` setting and, when `project_dir`
//                     is set, cheap facts about that directory (its kind,
//                     git branch and top-level entries).
//   before_message    injects the notes into each user message: the
//                     current contents of `notes_file` when it is set and
//                     readable, else the `notes` text.
//
// synaps starts this program in the plugin root and speaks JSON-RPC 2.0 over
// stdin/stdout, each message framed as "Content-Length: N\r\n\r\n" + N bytes
// of JSON. Logs go to stderr (console.error), which synaps keeps in
// ~/.synaps-cli/extensions/logs/context-injector.log.
'use strict';

const fs = require('fs');
const os = require('os');
const path = require('path');

const NAME = 'context-injector';
const VERSION = '0.1.0';
const MAX_FILE_BYTES = 16 * 1024; // of notes_file, per message
const MAX_ENTRIES = 25; // top-level entries listed in the summary

// Settled by initialize (params.config holds the resolved settings).
let config = {};
let pluginRoot = process.env.SYNAPS_PLUGIN_ROOT || process.cwd();
let lastFileError = '';

// ---- framing ---------------------------------------------------------------

function send(message) {
  const body = Buffer.from(JSON.stringify(message), 'utf8');
  process.stdout.write(Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`, 'ascii'), body]));
}

function reply(request, result) {
  send({ jsonrpc: '2.0', id: request.id, result });
}

function replyError(request, code, message) {
  send({ jsonrpc: '2.0', id: request.id, error: { code, message } });
}

// Frames arrive in arbitrary chunks: keep the bytes until a whole one is in.
let pending = Buffer.alloc(0);

function onData(chunk) {
  pending = Buffer.concat([pending, chunk]);
  for (;;) {
    const headerEnd = pending.indexOf('\r\n\r\n');
    if (headerEnd < 0) return;
    const header = pending.subarray(0, headerEnd).toString('latin1');
    const match = /^content-length:\s*(\d+)\s*$/im.exec(header);
    if (!match) {
      console.error(`${NAME}: skipping a header without Content-Length: ${JSON.stringify(header.slice(0, 80))}`);
      pending = pending.subarray(headerEnd + 4);
      continue;
    }
    const length = Number(match[1]);
    const start = headerEnd + 4;
    if (pending.length < start + length) return; // the rest of the body is still on its way
    const body = pending.subarray(start, start + length).toString('utf8');
    pending = pending.subarray(start + length);
    let message;
    try {
      message = JSON.parse(body);
    } catch (err) {
      console.error(`${NAME}: skipping a body that is not JSON: ${err.message}`);
      continue;
    }
    dispatch(message);
  }
}

function dispatch(message) {
  const isRequest = message && message.id !== undefined && message.id !== null;
  try {
    handle(message);
  } catch (err) {
    // A bug here must not take the extension down: report it and go on.
    console.error(`${NAME}: ${message && message.method}: ${err && err.stack || err}`);
    if (isRequest) replyError(message, -32603, String(err && err.message || err));
  }
}

function handle(request) {
  switch (request.method) {
    case 'initialize': {
      const params = request.params || {};
      config = params.config && typeof params.config === 'object' ? params.config : {};
      if (typeof params.plugin_root === 'string' && params.plugin_root) pluginRoot = params.plugin_root;
      return reply(request, {
        name: NAME,
        version: VERSION,
        protocol_version: 1,
        capabilities: { hooks: [{ name: 'on_session_start' }, { name: 'before_message' }] },
      });
    }
    case 'hook.handle': {
      const event = request.params || {};
      const kind = event.kind || event.hook;
      let content = '';
      if (kind === 'on_session_start') content = sessionSummary();
      else if (kind === 'before_message') content = messageContext();
      // inject needs non-empty content; {} lets the event through unchanged.
      return reply(request, content ? { action: 'inject', content } : {});
    }
    case 'shutdown':
      reply(request, {});
      process.stdout.write('', () => process.exit(0));
      return undefined;
    default:
      // Unknown request: answer, never crash. Notifications (no id): ignore.
      if (request.id !== undefined && request.id !== null) reply(request, {});
      return undefined;
  }
}

// ---- what gets injected ----------------------------------------------------

function setting(key) {
  const value = config[key];
  return value === undefined || value === null ? '' : String(value).trim();
}

// resolvePath reads a configured path: ~ is the home directory, and a
// relative path is taken from the plugin root.
function resolvePath(p) {
  if (p === '~' || p.startsWith('~/')) return path.join(os.homedir(), p.slice(1));
  return path.resolve(pluginRoot, p);
}

// readNotesFile returns the notes file's text, or null when notes_file is
// unset, unreadable or empty. It is read on every message, so edits show
// up at once.
function readNotesFile() {
  const configured = setting('notes_file');
  if (!configured) return null;
  const file = resolvePath(configured);
  let fd;
  try {
    fd = fs.openSync(file, 'r');
    const buf = Buffer.alloc(MAX_FILE_BYTES + 1);
    const n = fs.readSync(fd, buf, 0, buf.length, 0);
    let text = buf.subarray(0, Math.min(n, MAX_FILE_BYTES)).toString('utf8').replace(/\uFFFD$/, '');
    if (n > MAX_FILE_BYTES) text += `\n…[notes file cut at ${MAX_FILE_BYTES} bytes]`;
    text = text.trim();
    lastFileError = '';
    return text || null;
  } catch (err) {
    const note = `${NAME}: notes_file ${file}: ${err.message}; using the notes setting instead`;
    if (note !== lastFileError) console.error(note); // once, not on every message
    lastFileError = note;
    return null;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

function messageContext() {
  const fromFile = readNotesFile();
  if (fromFile !== null) return `Project notes (from ${setting('notes_file')}):\n${fromFile}`;
  const notes = setting('notes');
  return notes ? `Project notes:\n${notes}` : '';
}

function sessionSummary() {
  const parts = [];
  const dir = setting('project_dir');
  if (dir) {
    const facts = projectFacts(resolvePath(dir));
    if (facts) parts.push(facts);
  }
  const notes = setting('notes');
  if (notes) parts.push(`Project notes:\n${notes}`);
  return parts.join('\n\n');
}

// projectFacts gathers what a directory listing and two small files tell:
// no processes are started, so a session start never waits on git.
function projectFacts(dir) {
  let entries;
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch (err) {
    console.error(`${NAME}: project_dir ${dir}: ${err.message}`);
    return '';
  }
  const names = new Set(entries.map((e) => e.name));
  const lines = [`Project: ${path.basename(dir)} (${dir})`];
  const kinds = projectKinds(dir, names);
  if (kinds.length) lines.push(`Kind: ${kinds.join(', ')}`);
  const branch = gitBranch(dir);
  if (branch) lines.push(`Git: ${branch}`);
  const visible = entries
    .filter((e) => !e.name.startsWith('.'))
    .map((e) => (e.isDirectory() ? `${e.name}/` : e.name))
    .sort();
  if (visible.length) {
    const more = visible.length > MAX_ENTRIES ? `, … (${visible.length - MAX_ENTRIES} more)` : '';
    lines.push(`Top level: ${visible.slice(0, MAX_ENTRIES).join(', ')}${more}`);
  }
  return lines.join('\n');
}

function projectKinds(dir, names) {
  const kinds = [];
  if (names.has('go.mod')) {
    const m = /^module\s+(\S+)/m.exec(readSmall(path.join(dir, 'go.mod')));
    kinds.push(m ? `Go module ${m[1]}` : 'Go module');
  }
  if (names.has('package.json')) {
    let pkg = '';
    try {
      pkg = JSON.parse(readSmall(path.join(dir, 'package.json'))).name || '';
    } catch (err) {
      // not JSON: still a Node project
    }
    kinds.push(pkg ? `Node package ${pkg}` : 'Node package');
  }
  if (names.has('pyproject.toml') || names.has('setup.py')) kinds.push('Python project');
  if (names.has('Cargo.toml')) kinds.push('Rust crate');
  if (names.has('pom.xml') || names.has('build.gradle') || names.has('build.gradle.kts')) kinds.push('JVM project');
  if (names.has('Makefile')) kinds.push('has a Makefile');
  return kinds;
}

// gitBranch reads .git/HEAD (following a worktree's "gitdir:" file).
function gitBranch(dir) {
  let gitDir = path.join(dir, '.git');
  try {
    if (fs.statSync(gitDir).isFile()) {
      const m = /^gitdir:\s*(.+)$/m.exec(readSmall(gitDir));
      if (!m) return '';
      gitDir = path.resolve(dir, m[1].trim());
    }
    const head = readSmall(path.join(gitDir, 'HEAD')).trim();
    const ref = /^ref:\s*refs\/heads\/(.+)$/.exec(head);
    if (ref) return `on branch ${ref[1]}`;
    return /^[0-9a-f]{7,}$/.test(head) ? `detached at ${head.slice(0, 12)}` : '';
  } catch (err) {
    return ''; // not a git checkout
  }
}

function readSmall(file) {
  const fd = fs.openSync(file, 'r');
  try {
    const buf = Buffer.alloc(4096);
    const n = fs.readSync(fd, buf, 0, buf.length, 0);
    return buf.subarray(0, n).toString('utf8');
  } finally {
    fs.closeSync(fd);
  }
}

process.stdin.on('data', onData);
process.stdin.on('end', () => process.exit(0));
