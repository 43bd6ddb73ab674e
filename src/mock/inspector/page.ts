/**
 * The inspector's page: one HTML document with its style and script inline, no framework and no build step.
 * It polls `/_inspector/state` (with the request filters as its query, and the cursor of its last answer as
 * `since`, so that a poll carries only what changed), opens an exchange from `/_inspector/exchange` and a
 * turn's whole text from `/_inspector/turn`, links the HAR export, and posts answers, turns, faults and
 * resets as JSON to the other endpoints. Every value from the mock goes into the DOM as text
 * (`textContent`), never as markup.
 */
export const INSPECTOR_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>convo-mock inspector</title>
<style>
  :root { font: 13px/1.4 system-ui, sans-serif; color: #1d232b; background: #f4f5f7; }
  body { margin: 0; }
  header { display: flex; align-items: center; gap: 12px; padding: 8px 16px; background: #1d232b; color: #fff; }
  header h1 { font-size: 15px; margin: 0; flex: 1; }
  main { display: grid; grid-template-columns: 340px 1fr; gap: 12px; padding: 12px 16px; }
  section { background: #fff; border: 1px solid #d8dce2; border-radius: 6px; padding: 8px 10px; margin-bottom: 12px; }
  h2 { font-size: 13px; margin: 0 0 6px; text-transform: uppercase; letter-spacing: .04em; color: #56606d; }
  label { display: block; margin: 4px 0 2px; color: #56606d; }
  input, select, textarea { width: 100%; box-sizing: border-box; font: inherit; padding: 3px 5px; }
  textarea { height: 58px; }
  button { font: inherit; padding: 3px 9px; border: 1px solid #98a1ad; border-radius: 4px; background: #fff; cursor: pointer; }
  button.primary { background: #2f6fd6; border-color: #2f6fd6; color: #fff; }
  button.danger { border-color: #c0392b; color: #c0392b; }
  .directives button { font-size: 11px; padding: 1px 5px; margin: 2px 2px 0 0; }
  .muted { color: #7a8491; }
  pre { background: #f4f5f7; padding: 4px 6px; margin: 4px 0; white-space: pre-wrap; word-break: break-word; max-height: 160px; overflow: auto; font-size: 12px; }
  .interaction { border-left: 3px solid #e6a23c; padding-left: 8px; margin-bottom: 10px; }
  .deadline { font-variant-numeric: tabular-nums; font-weight: 600; }
  .turn { border-left: 3px solid #98a1ad; padding: 2px 0 2px 8px; margin-bottom: 10px; }
  .turn[data-status=completed] { border-color: #2e9d5b; }
  .turn[data-status=pending] { border-color: #2f6fd6; }
  .turn[data-status=error], .turn[data-status=cancelled] { border-color: #c0392b; }
  .badge { display: inline-block; padding: 0 6px; border-radius: 8px; background: #e8ebef; font-size: 11px; margin-right: 4px; }
  .timeline { list-style: none; padding: 0; margin: 4px 0; }
  .timeline li { padding: 1px 0; }
  .timeline .kind { display: inline-block; min-width: 185px; color: #56606d; font-family: ui-monospace, monospace; font-size: 12px; }
  .text { white-space: pre-wrap; }
  table { border-collapse: collapse; width: 100%; font-size: 12px; }
  td, th { text-align: left; padding: 2px 6px; border-bottom: 1px solid #eceef1; white-space: nowrap; }
  td.path { white-space: normal; word-break: break-all; font-family: ui-monospace, monospace; }
  .s4, .s5, .s0 { color: #c0392b; }
  tr[data-request] { cursor: pointer; }
  tr[data-request]:hover, tr.opened { background: #eef3fb; }
  td.code { font-family: ui-monospace, monospace; font-size: 11px; }
  tr.detail > td { white-space: normal; background: #fafbfc; padding: 6px 8px; }
  .panes { display: grid; grid-template-columns: 1fr 1fr; gap: 10px; }
  .panes h3 { font-size: 12px; margin: 2px 0; }
  .headers { font-family: ui-monospace, monospace; font-size: 11px; color: #56606d; }
  .filters { display: grid; grid-template-columns: 2fr 1fr 1.5fr 2fr auto; gap: 6px; align-items: end; margin-bottom: 6px; }
  .filters label { margin: 0; font-size: 11px; }
  .at { display: inline-block; min-width: 64px; color: #7a8491; font-variant-numeric: tabular-nums; font-size: 11px; }
  .timeline .dropped .text { text-decoration: line-through; color: #98a1ad; }
  .timeline .replace .kind { color: #b9770e; font-weight: 600; }
  .meta { font-size: 12px; color: #56606d; }
  .row { display: flex; gap: 6px; }
  .row > * { flex: 1; }
  .fault { padding: 2px 0; border-bottom: 1px solid #eceef1; }
  .fault[data-state=armed] .badge { background: #fdebd0; }
  .fault[data-state=fired] .badge { background: #d5f5e3; }
  .presets button { font-size: 11px; padding: 1px 5px; margin: 2px 2px 0 0; }
  a.button { font: inherit; padding: 3px 9px; border: 1px solid #98a1ad; border-radius: 4px; background: #fff; color: #1d232b; text-decoration: none; }
</style>
</head>
<body>
<header><h1>convo-mock inspector</h1><span id="status" class="muted">connecting</span><a id="export" class="button" href="/_inspector/har" download="convo-mock.har" title="the listed requests as a HAR file (tokens masked)">Export HAR</a><button id="reset" class="danger">Reset the mock</button></header>
<main>
<div>
  <section>
    <h2>Send a turn</h2>
    <form id="send-form">
      <label for="credential">Credential</label><select id="credential"></select>
      <label for="chat">Chat id (empty: a new chat)</label><input id="chat" placeholder="a new chat">
      <label for="content">Content</label><textarea id="content">Hello [[mock:words n=8]]</textarea>
      <div class="directives" id="directives"></div>
      <label for="mode">Permission mode</label>
      <select id="mode"><option value="manual">manual</option><option value="auto">auto</option></select>
      <p><button id="send" class="primary" type="submit">Stream it</button> <span id="send-result" class="muted"></span></p>
    </form>
  </section>
  <section>
    <h2>Pending interactions</h2>
    <div id="pending"><p class="muted empty">none</p></div>
  </section>
  <section>
    <h2>Faults</h2>
    <div class="presets" id="presets"></div>
    <form id="fault-form">
      <div class="row"><div><label for="fault-route">Route</label><select id="fault-route"><option>send</option><option>stream</option><option>answer</option><option>cancel</option><option value="path">path contains</option></select></div>
      <div><label for="fault-path">Path</label><input id="fault-path" placeholder="/api/v1/skills"></div></div>
      <div class="row"><div><label for="fault-action">Action</label><select id="fault-action"><option value="respond">respond an error</option><option value="drop">drop the response</option><option value="cutAfterEvents">cut the stream</option><option value="stall">stall the stream</option><option value="inProgress">409 turn in progress</option><option value="malformed">malformed stream</option><option value="delay">delay the request</option></select></div>
      <div><label for="fault-times">Times</label><input id="fault-times" type="number" min="1" max="100" value="1"></div></div>
      <div class="row"><div><label for="fault-status">Status</label><input id="fault-status" type="number" min="400" max="599" value="503"></div>
      <div><label for="fault-retry">retry_action</label><select id="fault-retry"><option value="retry">retry</option><option value="check_status">check_status</option><option value="">none</option></select></div></div>
      <label for="fault-code">message_code</label><input id="fault-code" value="api_v1_service_unavailable">
      <label for="fault-data">data (JSON; required where the contract shapes the code's data)</label><input id="fault-data" placeholder='{"message_id": 1}'>
      <div class="row"><div><label for="fault-events">After events</label><input id="fault-events" type="number" min="0" max="10000" value="3"></div>
      <div><label for="fault-ms">Delay ms</label><input id="fault-ms" type="number" min="0" max="600000" value="2000"></div>
      <div><label for="fault-malformed">Damage</label><select id="fault-malformed"><option>not-json</option><option>no-data</option><option>unknown-event</option><option>second-terminal</option><option>after-terminal</option><option>bom</option><option>crlf</option><option>cr</option><option>comments</option><option>huge-event</option></select></div></div>
      <p><button id="arm" class="primary" type="submit">Arm for the next request</button> <button id="clear-faults" type="button">Clear</button> <span id="fault-result" class="muted"></span></p>
    </form>
    <div id="faults"></div>
  </section>
  <section>
    <h2>Credentials</h2>
    <table><thead><tr><th>name</th><th>user</th><th>scopes</th></tr></thead><tbody id="credentials"></tbody></table>
  </section>
</div>
<div>
  <section><h2>Turns</h2><div id="turns"><p class="muted">none yet</p></div></section>
  <section>
    <h2>Requests</h2>
    <form class="filters" id="filters">
      <div><label for="filter-path">path contains</label><input id="filter-path" maxlength="200"></div>
      <div><label for="filter-status">status</label><input id="filter-status" maxlength="3" placeholder="404, 4xx, 0" pattern="0|[1-5][0-9][0-9]|[1-5]xx"></div>
      <div><label for="filter-credential">credential</label><select id="filter-credential"><option value="">any</option></select></div>
      <div><label for="filter-chat">chat contains</label><input id="filter-chat" maxlength="200"></div>
      <div><button type="reset" id="filter-clear">Clear</button></div>
    </form>
    <p class="muted" id="limits"></p>
    <table><thead><tr><th>#</th><th>time</th><th>method</th><th>path</th><th>status</th><th>credential</th><th>ms</th></tr></thead>
    <tbody id="requests"></tbody></table>
  </section>
</div>
</main>
<script>
"use strict";
const $ = (id) => document.getElementById(id);
function el(tag, props, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props || {})) {
    if (key === "className") node.className = value;
    else if (key.startsWith("data-")) node.setAttribute(key, value);
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node[key] = value;
  }
  for (const child of children) if (child != null) node.append(child);
  return node;
}
async function post(path, body) {
  const response = await fetch(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const text = await response.text();
  if (!response.ok) throw new Error(response.status + " " + text.slice(0, 300));
  return text;
}
const json = (value) => JSON.stringify(value, null, 2);
let directivesShown = false;
let credentialsShown = false;
const deadlines = new Map();

function renderForm(state) {
  if (!credentialsShown) {
    for (const c of state.credentials) {
      $("credential").append(el("option", { value: c.id, textContent: c.name + " · " + c.scopes.length + " scopes" }));
      $("filter-credential").append(el("option", { value: c.id, textContent: c.name }));
      $("credentials").append(el("tr", { "data-credential": c.id }, el("td", { className: "code", textContent: c.name }), el("td", { textContent: c.user }), el("td", { className: "path", textContent: c.scopes.join(" ") || "(none)" })));
    }
    $("limits").textContent = "Keeps the last " + state.limits.exchanges + " requests, the first " + (state.limits.bodyChars / 1024) + " Ki characters of each body. Click a row to open it.";
    credentialsShown = true;
  }
  if (!directivesShown) {
    const samples = { words: "words n=8", slow: "slow ms=150", error: "error code=upstream_error" };
    for (const name of state.directives) {
      const directive = "[[mock:" + (samples[name] || name) + "]]";
      $("directives").append(el("button", { type: "button", textContent: name, title: directive, onclick: () => { $("content").value += " " + directive; } }));
    }
    directivesShown = true;
  }
}

function answerButton(label, item, body, className) {
  return el("button", { type: "button", textContent: label, className: className || "", "data-answer": label.toLowerCase(), onclick: async (event) => {
    event.target.disabled = true;
    try { await post("/_inspector/answer", { action_id: item.action_id, body }); refresh(); }
    catch (error) { item.node.querySelector(".answer-error").textContent = error.message; event.target.disabled = false; }
  } });
}

function elicitationForm(item) {
  const schema = item.payload.requested_schema || {};
  const required = new Set(schema.required || []);
  const form = el("div", { className: "elicitation" });
  const inputs = [];
  for (const [name, field] of Object.entries(schema.properties || {})) {
    let input;
    if (Array.isArray(field.enum)) input = el("select", {}, ...field.enum.map((v) => el("option", { value: JSON.stringify(v), textContent: String(v) })));
    else if (field.type === "boolean") input = el("input", { type: "checkbox" });
    else input = el("input", { type: field.type === "number" || field.type === "integer" ? "number" : "text", placeholder: field.description || "" });
    input.name = name;
    inputs.push({ name, field, input });
    form.append(el("label", { textContent: name + (required.has(name) ? " *" : "") }), input);
  }
  const content = () => {
    const out = {};
    for (const { name, field, input } of inputs) {
      if (field.type === "boolean") out[name] = input.checked;
      else if (Array.isArray(field.enum)) out[name] = JSON.parse(input.value);
      else if (input.value === "") continue;
      else out[name] = field.type === "number" || field.type === "integer" ? Number(input.value) : input.value;
    }
    return out;
  };
  form.append(el("p", {},
    el("button", { type: "button", className: "primary", textContent: "Accept", "data-answer": "accept", onclick: async (event) => {
      event.target.disabled = true;
      try { await post("/_inspector/answer", { action_id: item.action_id, body: { action: "accept", content: content() } }); refresh(); }
      catch (error) { item.node.querySelector(".answer-error").textContent = error.message; event.target.disabled = false; }
    } }), " ",
    answerButton("Decline", item, { action: "decline" }), " ",
    answerButton("Cancel", item, { action: "cancel" }, "danger")));
  return form;
}

function interactionNode(item) {
  const node = el("div", { className: "interaction", "data-kind": item.kind, "data-action-id": item.action_id });
  item.node = node;
  node.append(el("div", {}, el("span", { className: "badge", textContent: item.kind }), el("span", { className: "muted", textContent: "turn " + item.turn_id + " · " + item.credential + " · " }), el("span", { className: "deadline" })));
  if (item.kind === "elicitation" && item.payload.message) node.append(el("div", { textContent: item.payload.message }));
  node.append(el("pre", { textContent: json(item.payload) }));
  if (item.kind === "tool_approval") {
    const tools = item.payload.tools || [];
    const all = (approved) => ({ decisions: tools.map((t) => ({ tool_use_id: t.tool_use_id, approved })) });
    node.append(el("p", {}, answerButton("Approve", item, all(true), "primary"), " ", answerButton("Reject", item, all(false), "danger")));
  } else if (item.kind === "plan_approval") {
    node.append(el("p", {}, answerButton("Approve", item, { action: "approve" }, "primary"), " ", answerButton("Reject", item, { action: "reject" }, "danger")));
  } else if (item.kind === "elicitation") {
    node.append(elicitationForm(item));
  } else if (item.kind === "auth_required") {
    node.append(el("p", {}, answerButton("Cancel auth", item, {}, "danger")));
  }
  node.append(el("div", { className: "answer-error s4" }));
  return node;
}

function renderPending(state) {
  const box = $("pending");
  const live = new Set(state.pending.map((item) => item.action_id));
  for (const id of [...deadlines.keys()]) if (!live.has(id)) { deadlines.get(id).node.remove(); deadlines.delete(id); }
  for (const item of state.pending) {
    if (!deadlines.has(item.action_id)) { box.append(interactionNode(item)); deadlines.set(item.action_id, item); }
    deadlines.get(item.action_id).expiresAt = performance.now() + item.remaining_ms;
  }
  const empty = box.querySelector(".empty");
  if (state.pending.length === 0 && !empty) box.append(el("p", { className: "muted empty", textContent: "none" }));
  if (state.pending.length > 0 && empty) empty.remove();
  tick();
}
function tick() {
  for (const item of deadlines.values()) {
    const left = Math.max(0, item.expiresAt - performance.now());
    item.node.querySelector(".deadline").textContent = "expires in " + (left / 1000).toFixed(0) + " s";
  }
}

const at = (ms) => el("span", { className: "at", textContent: "+" + ms + " ms" });
function timelineEntry(entry, dropped) {
  if (entry.type === "text") return el("li", { "data-entry": "text", className: (entry.replace ? "replace " : "") + (dropped ? "dropped" : "") }, at(entry.at),
    el("span", { className: "kind", textContent: (entry.replace ? "replace: text (" : "text (") + entry.deltas + (entry.deltas === 1 ? " delta" : " deltas") + (entry.to > entry.at ? " to +" + entry.to + " ms" : "") + ")" }),
    el("span", { className: "text", textContent: entry.text + (entry.clipped ? " …(" + entry.clipped + " more chars not kept)" : "") }));
  if (entry.type === "ping") return el("li", { "data-entry": "ping" }, at(entry.at), el("span", { className: "kind", textContent: "ping" }), el("span", { className: "muted", textContent: "x" + entry.count }));
  const data = entry.data || {};
  let summary = "";
  if (entry.event === "message.step") summary = (data.steps || []).map((s) => s.label + " " + s.status + (s.tool_calls ? ": " + s.tool_calls.map((c) => c.name + "@" + c.server).join(", ") : "")).join("; ");
  else if (entry.event === "message.action_required") summary = data.kind + " " + data.action_id;
  else if (entry.event === "message.error") summary = data.code + ": " + data.message;
  else if (entry.event === "message.start") summary = "message " + data.message_id;
  else if (entry.event === "message.completed" || entry.event === "message.cancelled") summary = chars(data.content || "") + " chars" + (data.usage ? ", " + data.usage.total_tokens + " tokens" : "");
  return el("li", { "data-entry": entry.event }, at(entry.at), el("span", { className: "kind", textContent: entry.event }), el("span", { textContent: summary }));
}
// A long string of a payload is kept cut, ending "…(+N chars)": its length is what was cut plus N.
function chars(text) {
  const cut = /…\\(\\+(\\d+) chars\\)$/.exec(text);
  return cut ? text.length - cut[0].length + Number(cut[1]) : text.length;
}
function streamEntries(entries) {
  // A replace delta carries the whole new text: every text before it is dropped by the client.
  const lastReplace = entries.map((e) => e.type === "text" && e.replace).lastIndexOf(true);
  return entries.map((entry, index) => timelineEntry(entry, entry.type === "text" && index < lastReplace));
}

function turnMeta(turn) {
  const usage = turn.usage ? "usage " + turn.usage.prompt_tokens + " prompt / " + turn.usage.completion_tokens + " completion / " + turn.usage.total_tokens + " total (" + turn.usage.model + ")" : "no usage";
  const meta = el("div", { className: "meta" },
    el("div", { textContent: "chat " + turn.chat_id + " · key " + turn.key + " · " + turn.credential }),
    el("div", { textContent: "model " + turn.model + " · " + usage + " · created " + turn.created_at }));
  if (turn.metadata) meta.append(el("div", { className: "metadata", textContent: "metadata " + JSON.stringify(turn.metadata) }));
  if (turn.error) meta.append(el("div", { className: "s4", textContent: "error " + turn.error.code + ": " + turn.error.message }));
  return meta;
}

// The state lists each turn once it changed; the page keeps the last view of every listed turn.
const turnsById = new Map();
const wholeTexts = new Map(); // turn id -> { prompt, content } from /_inspector/turn, once asked for
function mergeTurns(state) {
  if (state.full) turnsById.clear();
  for (const turn of state.turns) { turnsById.set(turn.id, turn); wholeTexts.delete(turn.id); }
  const listed = new Set(state.turnIds);
  for (const id of [...turnsById.keys()]) if (!listed.has(id)) { turnsById.delete(id); wholeTexts.delete(id); }
  return state.turnIds.map((id) => turnsById.get(id)).filter(Boolean);
}
async function showWhole(id) {
  const response = await fetch("/_inspector/turn?id=" + id, { cache: "no-store" });
  if (!response.ok) { $("status").textContent = await response.text(); return; }
  const turn = await response.json();
  wholeTexts.set(id, { prompt: turn.prompt, content: turn.content });
  renderTurns([...turnsById.values()].sort((a, b) => b.id - a.id));
}
// A cut text: what was kept, then its full length and a button for the whole of it.
function cutText(turn, field, className, prefix) {
  const text = (wholeTexts.get(turn.id) || turn)[field];
  const node = el("div", { className, "data-field": field, textContent: prefix + text.text });
  if (text.truncated) node.append(el("span", { className: "muted cut", textContent: " … (" + text.chars + " chars) " }),
    wholeTexts.has(turn.id) ? null : el("button", { type: "button", className: "whole", textContent: "show all", onclick: () => showWhole(turn.id).catch(() => {}) }));
  return node;
}
function renderTurns(turns) {
  const box = $("turns");
  box.replaceChildren();
  if (turns.length === 0) box.append(el("p", { className: "muted", textContent: "none yet" }));
  for (const turn of turns) {
    const node = el("div", { className: "turn", "data-turn-id": turn.id, "data-status": turn.status },
      el("div", {}, el("strong", { textContent: "turn " + turn.id + " " }), el("span", { className: "badge status", textContent: turn.status }), el("span", { className: "badge", textContent: turn.channel + " · " + turn.permission_mode })),
      turnMeta(turn),
      cutText(turn, "prompt", "muted prompt", "> "));
    if (turn.streams.length === 0 || wholeTexts.has(turn.id)) node.append(cutText(turn, "content", "text content", ""));
    if (turn.streamsOmitted) node.append(el("div", { className: "muted", textContent: turn.streamsOmitted + " earlier streams: open their requests" }));
    turn.streams.forEach((stream, index) => {
      if (turn.streams.length > 1 || stream.broken) node.append(el("div", { className: "muted", textContent: "stream " + (turn.streamsOmitted + index + 1) + (stream.broken ? " (broken before its terminal event)" : "") }));
      const entries = streamEntries(stream.entries);
      if (stream.omitted) entries.splice(1, 0, el("li", { className: "muted", textContent: "… " + stream.omitted + " entries: open the request" }));
      node.append(el("ul", { className: "timeline" }, ...entries));
    });
    box.append(node);
  }
}

function pretty(body, type) {
  if (body.bytes === 0) return "(no body)";
  let text = body.text;
  if ((type || "").includes("json") && !body.truncated) { try { text = json(JSON.parse(text)); } catch {} }
  return text + (body.truncated ? "\\n… (" + body.bytes + " bytes, the first " + body.text.length + " kept)" : "");
}
const headerOf = (headers, name) => (headers.find((h) => h[0] === name) || [])[1] || "";
function headerList(headers) {
  return el("div", { className: "headers" }, ...headers.map(([name, value]) => el("div", { textContent: name + ": " + value })));
}
function detailNode(x) {
  const request = el("div", { className: "request-pane" }, el("h3", { textContent: "Request" }),
    el("div", { className: "code", textContent: x.method + " " + x.url }),
    x.traceId ? el("div", { className: "code trace", textContent: "trace " + x.traceId }) : null, headerList(x.request.headers),
    el("pre", { className: "request-body", textContent: pretty(x.request.body, headerOf(x.request.headers, "content-type")) }));
  const response = el("div", { className: "response-pane" }, el("h3", { textContent: "Response" }),
    el("div", { className: "code", textContent: (x.status || "dropped connection") + (x.code ? " " + x.code : "") + (x.fault ? " · fault: " + x.fault : "") }),
    headerList(x.response.headers));
  if (x.response.events) {
    const lines = x.response.events.map((e) => "+" + e.at + " ms  " + e.event + "  " + e.data);
    if (x.response.eventsDropped) lines.splice(1, 0, "… " + x.response.eventsDropped + " events not kept");
    response.append(el("pre", { className: "events", textContent: lines.join("\\n") + (x.open ? "\\n… streaming" : "") }));
  } else response.append(el("pre", { className: "response-body", textContent: pretty(x.response.body, headerOf(x.response.headers, "content-type")) }));
  return el("tr", { className: "detail", "data-detail": x.id }, el("td", { colSpan: 7 }, el("div", { className: "panes" }, request, response)));
}

let opened = null; // { id, node, open }
async function openExchange(id, toggle = true) {
  if (toggle && opened && opened.id === id) { opened = null; renderRows(); return; }
  const response = await fetch("/_inspector/exchange?id=" + id, { cache: "no-store" });
  if (!response.ok) { $("status").textContent = await response.text(); opened = null; renderRows(); return; }
  const exchange = await response.json();
  opened = { id, node: detailNode(exchange), open: exchange.open };
  renderRows();
}

let lastRequests = [];
function renderRows() {
  const rows = [];
  for (const r of lastRequests) {
    rows.push(el("tr", { "data-request": r.id, "data-status": r.status, className: opened && opened.id === r.id ? "opened" : "", onclick: () => openExchange(r.id) },
      el("td", { textContent: r.id }), el("td", { textContent: r.at.slice(11, 23) }), el("td", { textContent: r.method }),
      el("td", { className: "path", textContent: r.path + (r.from === "inspector" ? "  (from this page)" : "") }, r.traceId ? el("div", { className: "code muted trace", textContent: "trace " + r.traceId }) : null),
      el("td", { className: "status s" + String(r.status)[0] }, el("span", { textContent: r.status || "dropped" }), r.code ? el("div", { className: "code", textContent: r.code }) : null, r.fault ? el("div", { className: "code muted", textContent: "fault fired" }) : null),
      el("td", { textContent: r.credential }),
      el("td", { textContent: r.ms + (r.open ? "+ (streaming)" : "") })));
    if (opened && opened.id === r.id) rows.push(opened.node);
  }
  $("requests").replaceChildren(...rows);
}
function renderRequests(state) {
  if (state.requests) lastRequests = state.requests;
  if (opened && opened.open) openExchange(opened.id, false).catch(() => {});
  else if (state.requests) renderRows();
}

function renderFaults(state) {
  const items = state.faults.page.map((f) => el("div", { className: "fault", "data-state": f.state, "data-fault": f.id },
    el("span", { className: "badge", textContent: f.state }), el("span", { textContent: f.description }),
    el("span", { className: "muted", textContent: (f.state === "armed" ? " · " + f.left + " left" : "") + (f.firedOn.length ? " · fired on #" + f.firedOn.join(", #") : "") })));
  for (const description of state.faults.code) items.push(el("div", { className: "fault", "data-state": "armed" }, el("span", { className: "badge", textContent: "armed in code" }), el("span", { textContent: description })));
  if (items.length === 0) items.push(el("p", { className: "muted", textContent: "none armed" }));
  $("faults").replaceChildren(...items);
}

function filterQuery() {
  const query = new URLSearchParams();
  for (const name of ["path", "status", "credential", "chat"]) {
    const input = $("filter-" + name);
    // A status being typed ("4") is not a filter yet: it waits until it is one.
    if (input.value.trim() && input.checkValidity()) query.set(name, input.value.trim());
  }
  const text = query.toString();
  return text ? "?" + text : "";
}

let polling = false;
// The cursor of the last answer, and the filters it was asked with: other filters ask for everything.
let cursor = null;
let cursorQuery = null;
async function refresh() {
  if (polling) return;
  polling = true;
  try {
    const query = filterQuery();
    const since = cursor && cursorQuery === query ? (query ? "&" : "?") + "since=" + encodeURIComponent(cursor) : "";
    const response = await fetch("/_inspector/state" + query + since, { cache: "no-store" });
    if (!response.ok) throw new Error(response.status + " " + (await response.text()));
    const state = await response.json();
    renderForm(state); renderPending(state); renderTurns(mergeTurns(state)); renderRequests(state); renderFaults(state);
    cursor = state.cursor;
    cursorQuery = query;
    $("export").href = "/_inspector/har" + query;
    $("status").textContent = "live · " + lastRequests.length + (query ? " requests (filtered)" : " requests");
    document.body.dataset.ready = "true";
  } catch (error) {
    $("status").textContent = "disconnected: " + error.message;
  } finally {
    polling = false;
  }
}

$("send-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  try {
    const body = { credential: Number($("credential").value), chat_id: $("chat").value.trim(), content: $("content").value, permission_mode: $("mode").value };
    const result = JSON.parse(await post("/_inspector/send", body));
    $("send-result").textContent = result.chat_id ? "sent into chat " + result.chat_id : JSON.stringify(result);
    if (result.chat_id) $("chat").value = result.chat_id;
    refresh();
  } catch (error) { $("send-result").textContent = error.message; }
});
function faultForm() {
  const number = (id) => Number($(id).value);
  return { route: $("fault-route").value, path: $("fault-path").value.trim(), action: $("fault-action").value, times: number("fault-times"),
    status: number("fault-status"), code: $("fault-code").value.trim(), retry_action: $("fault-retry").value, events: number("fault-events"), ms: number("fault-ms"), malformed: $("fault-malformed").value,
    ...($("fault-data").value.trim() ? { data: JSON.parse($("fault-data").value) } : {}) };
}
async function arm(fault) {
  try {
    const armed = JSON.parse(await post("/_inspector/faults", fault));
    $("fault-result").textContent = "armed: " + armed.description;
    refresh();
  } catch (error) { $("fault-result").textContent = error.message; }
}
const PRESETS = [
  ["503 retry on the next send", { route: "send", action: "respond", status: 503, code: "api_v1_service_unavailable", retry_action: "retry" }],
  ["503 retry on the next stream", { route: "stream", action: "respond", status: 503, code: "api_v1_service_unavailable", retry_action: "retry" }],
  ["409 chat busy", { route: "stream", action: "respond", status: 409, code: "api_v1_chat_busy", data: { message_id: 1 } }],
  ["cut the next stream after 3 events", { route: "stream", action: "cutAfterEvents", events: 3 }],
  ["drop the next answer's response", { route: "answer", action: "drop" }],
  ["delay the next send 2 s", { route: "send", action: "delay", ms: 2000 }],
];
for (const [label, fault] of PRESETS) $("presets").append(el("button", { type: "button", textContent: label, onclick: () => arm(fault) }));
$("fault-form").addEventListener("submit", (event) => {
  event.preventDefault();
  let fault;
  try { fault = faultForm(); } catch (error) { $("fault-result").textContent = "data: " + error.message; return; }
  arm(fault);
});
$("clear-faults").addEventListener("click", async () => { await post("/_inspector/faults/clear", {}); $("fault-result").textContent = ""; refresh(); });
for (const id of ["filter-path", "filter-status", "filter-credential", "filter-chat"]) $(id).addEventListener("input", () => refresh());
$("filters").addEventListener("reset", () => setTimeout(refresh, 0));
$("filters").addEventListener("submit", (event) => event.preventDefault());
$("reset").addEventListener("click", async () => {
  if (!confirm("Reset the mock: every skill, chat, turn and pending interaction goes?")) return;
  await post("/_inspector/reset", {});
  $("chat").value = "";
  refresh();
});
setInterval(refresh, 400);
setInterval(tick, 1000);
refresh();
</script>
</body>
</html>
`;
