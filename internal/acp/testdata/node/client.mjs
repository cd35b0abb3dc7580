// An editor, as far as ACP goes: drives `synaps acp` through the official
// TypeScript SDK (@agentclientprotocol/sdk, pinned in package.json) and
// prints what it saw as one JSON object for internal/acp's tests.
//
//   node client.mjs SYNAPS_CMD_JSON CWD
//
// SYNAPS_CMD_JSON is the argv of the agent for the first connection and
// of the one that loads the session again, as a JSON object
// {"first":[…], "again":[…]}; or {"edit":[…]}: one prompt whose edit the
// agent asks about, allowed, its permission request's content shown.
import { client, methods, ndJsonStream } from "@agentclientprotocol/sdk";
import { spawn } from "node:child_process";
import { Readable, Writable } from "node:stream";

const [cmds, cwd] = [JSON.parse(process.argv[2]), process.argv[3]];

// connect starts the agent and runs op with a context for its requests.
async function connect(argv, answers, op) {
  const child = spawn(argv[0], argv.slice(1), { stdio: ["pipe", "pipe", "inherit"] });
  const stream = ndJsonStream(Writable.toWeb(child.stdin), Readable.toWeb(child.stdout));
  const seen = { updates: [], permissions: [] };
  const app = client({ name: "synaps-acp-test" })
    .onNotification(methods.client.session.update, async ({ params }) => {
      seen.updates.push(params.update);
      if (seen.onUpdate) await seen.onUpdate(params.update);
    })
    .onRequest(methods.client.session.requestPermission, async ({ params }) => {
      const optionId = answers.shift();
      seen.permissions.push({ title: params.toolCall.title, toolCallId: params.toolCall.toolCallId, options: params.options.map((o) => o.optionId), answer: optionId, content: params.toolCall.content });
      return { outcome: { outcome: "selected", optionId } };
    });
  try {
    return await app.connectWith(stream, (ctx) => op(ctx, seen));
  } finally {
    child.stdin.end();
    await new Promise((resolve) => child.on("exit", resolve));
  }
}

// summary is what one prompt showed: the agent's text, each tool call's
// start and end, and the permission requests.
function summary(seen, from, stopReason) {
  const ups = seen.updates.slice(from);
  const text = ups.filter((u) => u.sessionUpdate === "agent_message_chunk").map((u) => u.content.text).join("");
  const calls = [];
  for (const u of ups) {
    if (u.sessionUpdate === "tool_call") calls.push(`start ${u.kind} ${u.status} ${u.title}`);
    if (u.sessionUpdate === "tool_call_update" && u.status) {
      const first = (u.content || []).find((c) => c.type === "content");
      calls.push(`end ${u.status} ${first ? first.content.text.trim() : ""}`.trim());
    }
  }
  return { stopReason, text, calls };
}

const out = {};
if (cmds.edit) {
  await connect(cmds.edit, ["allow_once"], async (ctx, seen) => {
    await ctx.request(methods.agent.initialize, { protocolVersion: 1, clientCapabilities: {} });
    const { sessionId } = await ctx.request(methods.agent.session.new, { cwd, mcpServers: [] });
    const r = await ctx.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "edit the notes" }] });
    out.edit = summary(seen, 0, r.stopReason);
    out.permissions = seen.permissions;
  });
  process.stdout.write(JSON.stringify(out) + "\n");
  process.exit(0);
}
await connect(cmds.first, ["allow_once", "reject_once"], async (ctx, seen) => {
  const init = await ctx.request(methods.agent.initialize, { protocolVersion: 1, clientCapabilities: {} });
  out.init = { protocolVersion: init.protocolVersion, loadSession: init.agentCapabilities.loadSession, agent: init.agentInfo.name };
  const { sessionId } = await ctx.request(methods.agent.session.new, { cwd, mcpServers: [] });
  out.sessionId = sessionId;
  out.prompts = [];
  for (const text of ["tidy up", "push again"]) {
    const from = seen.updates.length;
    const r = await ctx.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text }] });
    out.prompts.push(summary(seen, from, r.stopReason));
  }
  out.permissions = seen.permissions;
  // Cancel mid-turn: when the long command starts.
  const from = seen.updates.length;
  seen.onUpdate = async (u) => {
    if (u.sessionUpdate === "tool_call" && u.title.startsWith("sleep")) {
      await ctx.notify(methods.agent.session.cancel, { sessionId });
    }
  };
  const r = await ctx.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "wait" }] });
  out.cancelled = summary(seen, from, r.stopReason);
});

await connect(cmds.again, [], async (ctx, seen) => {
  await ctx.request(methods.agent.initialize, { protocolVersion: 1, clientCapabilities: {} });
  await ctx.request(methods.agent.session.load, { sessionId: out.sessionId, cwd, mcpServers: [] });
  const users = seen.updates.filter((u) => u.sessionUpdate === "user_message_chunk").map((u) => u.content.text);
  const from = seen.updates.length;
  const r = await ctx.request(methods.agent.session.prompt, { sessionId: out.sessionId, prompt: [{ type: "text", text: "are you there?" }] });
  out.load = { replayedUsers: users, replayedUpdates: from, ...summary(seen, from, r.stopReason) };
});

process.stdout.write(JSON.stringify(out) + "\n");
