/**
 * The inspector's page: one HTML document with its style and script inline, no framework and no build step.
 * It polls `/_inspector/state` and posts answers, turns and resets as JSON to the other endpoints. Every
 * value from the mock goes into the DOM as text (`textContent`), never as markup.
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
</style>
</head>
<body>
<header><h1>convo-mock inspector</h1><span id="status" class="muted">connecting</span><button id="reset" class="danger">Reset the mock</button></header>
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
</div>
<div>
  <section><h2>Turns</h2><div id="turns"><p class="muted">none yet</p></div></section>
  <section>
    <h2>Requests</h2>
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
    for (const c of state.credentials) $("credential").append(el("option", { value: c.id, textContent: c.name + " · " + c.scopes.length + " scopes" }));
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

function timelineEntry(entry) {
  if (entry.type === "text") return el("li", { "data-entry": "text" }, el("span", { className: "kind", textContent: "text (" + entry.deltas + " deltas" + (entry.replaced ? ", " + entry.replaced + " replace" : "") + ")" }), el("span", { className: "text", textContent: entry.text }));
  if (entry.type === "ping") return el("li", { "data-entry": "ping" }, el("span", { className: "kind", textContent: "ping" }), el("span", { className: "muted", textContent: "x" + entry.count }));
  const data = entry.data || {};
  let summary = "";
  if (entry.event === "message.step") summary = (data.steps || []).map((s) => s.label + " " + s.status + (s.tool_calls ? ": " + s.tool_calls.map((c) => c.name + "@" + c.server).join(", ") : "")).join("; ");
  else if (entry.event === "message.action_required") summary = data.kind + " " + data.action_id;
  else if (entry.event === "message.error") summary = data.code + ": " + data.message;
  else if (entry.event === "message.start") summary = "message " + data.message_id;
  else if (entry.event === "message.completed" || entry.event === "message.cancelled") summary = (data.content || "").length + " chars" + (data.usage ? ", " + data.usage.total_tokens + " tokens" : "");
  return el("li", { "data-entry": entry.event }, el("span", { className: "kind", textContent: entry.event }), el("span", { textContent: summary }));
}

function renderTurns(state) {
  const box = $("turns");
  box.replaceChildren();
  if (state.turns.length === 0) box.append(el("p", { className: "muted", textContent: "none yet" }));
  for (const turn of state.turns) {
    const node = el("div", { className: "turn", "data-turn-id": turn.id, "data-status": turn.status },
      el("div", {}, el("strong", { textContent: "turn " + turn.id + " " }), el("span", { className: "badge status", textContent: turn.status }), el("span", { className: "badge", textContent: turn.channel + " · " + turn.permission_mode }),
        el("span", { className: "muted", textContent: " chat " + turn.chat_id + " · key " + turn.key + " · " + turn.credential })),
      el("div", { className: "muted", textContent: "> " + turn.prompt }));
    if (turn.streams.length === 0) node.append(el("div", { className: "text", textContent: turn.content }));
    turn.streams.forEach((stream, index) => {
      if (turn.streams.length > 1) node.append(el("div", { className: "muted", textContent: "stream " + (index + 1) + (stream.broken ? " (broken)" : "") }));
      node.append(el("ul", { className: "timeline" }, ...stream.entries.map(timelineEntry)));
    });
    box.append(node);
  }
}

function renderRequests(state) {
  $("requests").replaceChildren(...state.requests.map((r) => el("tr", { "data-request": r.id },
    el("td", { textContent: r.id }), el("td", { textContent: r.at.slice(11, 23) }), el("td", { textContent: r.method }),
    el("td", { className: "path", textContent: r.path + (r.from === "inspector" ? "  (from this page)" : "") }),
    el("td", { className: "s" + String(r.status)[0], textContent: r.status || "dropped" }), el("td", { textContent: r.credential }),
    el("td", { textContent: r.ms + (r.open ? "+ (streaming)" : "") }))));
}

let polling = false;
async function refresh() {
  if (polling) return;
  polling = true;
  try {
    const response = await fetch("/_inspector/state", { cache: "no-store" });
    if (!response.ok) throw new Error(response.status + " " + (await response.text()));
    const state = await response.json();
    renderForm(state); renderPending(state); renderTurns(state); renderRequests(state);
    $("status").textContent = "live · " + state.requests.length + " requests";
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
