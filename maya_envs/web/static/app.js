// maya-web page: plain JS, no build step. The server does every rule check; this file draws
// what it returns and maps clicks on the board (SVG shapes with data-key) to legal moves.
"use strict";

const $ = (id) => document.getElementById(id);
const state = { info: null, view: null, selection: [], paused: false, timer: null, stepping: false };
window.mayaState = state; // read by the browser tests

function showError(message) {
  const box = $("error");
  box.textContent = message;
  box.hidden = !message;
}

async function api(method, url, body) {
  const options = { method, headers: {} };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  const response = await fetch(url, options);
  let data;
  try { data = await response.json(); } catch (e) { data = { error: `server answered ${response.status}` }; }
  if (!response.ok) {
    showError(data.error || `server answered ${response.status}`);
    throw new Error(data.error);
  }
  showError("");
  return data;
}

// "key=value, key2=[1,2]" -> {key: value, ...}; values read as JSON when they parse.
function parseOptions(text) {
  const parts = [];
  let depth = 0, quote = null, current = "";
  for (const ch of text) {
    if (quote) { if (ch === quote) quote = null; current += ch; continue; }
    if (ch === '"' || ch === "'") { quote = ch; current += ch; continue; }
    if (ch === "[" || ch === "{") depth++;
    if (ch === "]" || ch === "}") depth--;
    if ((ch === "," || ch === "\n") && depth === 0) { parts.push(current); current = ""; continue; }
    current += ch;
  }
  parts.push(current);
  const options = {};
  for (const part of parts.map((p) => p.trim()).filter(Boolean)) {
    const at = part.indexOf("=");
    if (at < 1) throw new Error(`option ${JSON.stringify(part)}: write key=value`);
    const key = part.slice(0, at).trim();
    let value = part.slice(at + 1).trim();
    try { value = JSON.parse(value.replace(/^'(.*)'$/, '"$1"')); } catch (e) { /* a plain string */ }
    options[key] = value;
  }
  return options;
}

function fillSeats() {
  const n = Number($("players").value);
  const box = $("seats");
  const old = [...box.querySelectorAll("input")].map((i) => i.value);
  box.innerHTML = "";
  for (let s = 0; s < n; s++) {
    const label = document.createElement("label");
    label.textContent = `player_${s} `;
    const input = document.createElement("input");
    input.id = `seat-${s}`;
    input.setAttribute("list", "agent-specs");
    input.value = old[s] || (s === 0 ? "human" : "random");
    label.appendChild(input);
    box.appendChild(label);
  }
}

function fillGame() {
  const game = state.info.games.find((g) => g.name === $("game").value);
  $("players").innerHTML = game.players.map((n) => `<option>${n}</option>`).join("");
  $("option-hint").textContent = `e.g. ${game.options}`;
  fillSeats();
}

async function loadInfo() {
  state.info = await api("GET", "/api/info");
  $("game").innerHTML = state.info.games.map((g) => `<option value="${g.name}">${g.name}</option>`).join("");
  const list = document.createElement("datalist");
  list.id = "agent-specs";
  const specs = [...state.info.agents, ...state.info.checkpoints.map((c) => `checkpoint:${c}`)];
  list.innerHTML = specs.map((a) => `<option value="${a}">`).join("");
  document.body.appendChild(list);
  $("agent-hint").textContent = `seats: ${specs.join(", ")}`;
  fillGame();
}

function currentViewParam() {
  const value = $("view").value;
  return value === "" ? "" : `seat=${encodeURIComponent(value)}`;
}

async function startGame() {
  let options;
  try { options = parseOptions($("options").value); } catch (e) { showError(e.message); return; }
  options.num_players = Number($("players").value);
  const seats = [...$("seats").querySelectorAll("input")].map((i) => i.value.trim());
  const body = { game: $("game").value, options, seats };
  const seed = $("seed").value.trim();
  if (seed !== "") body.seed = seed; // as text: the server reads it exactly (a Number would round 30 digits)
  const view = await api("POST", "/api/games", body);
  closeCurrent();
  state.paused = false;
  $("pause").textContent = "Pause";
  $("view").innerHTML = "";
  show(view);
}

async function refresh() {
  const v = state.view;
  if (!v) return;
  const url = v.kind === "live"
    ? `/api/games/${v.id}?${currentViewParam()}`
    : `/api/replays/${v.id}?index=${v.index}&${currentViewParam()}`;
  show(await api("GET", url));
}

function fillViews(view) {
  const select = $("view");
  const wanted = view.views.map((s) => (s === null ? "" : String(s)));
  const have = [...select.options].map((o) => o.value);
  if (wanted.join() !== have.join()) {
    select.innerHTML = view.views
      .map((s) => (s === null ? '<option value="">everything</option>' : `<option value="${s}">player_${s}</option>`))
      .join("");
  }
  select.value = view.viewer === null ? "" : String(view.viewer);
}

function show(view) {
  state.view = view;
  state.selection = [];
  $("controls").hidden = false;
  $("board").innerHTML = view.svg;
  fillViews(view);
  $("live-controls").hidden = view.kind !== "live";
  $("replay-controls").hidden = view.kind !== "replay";
  // a seed that would rebuild hidden draws comes as null until the game is over: show the id
  const tag = view.seed === null ? `game ${view.id}` : `seed ${view.seed}`;
  $("status").textContent = view.kind === "live"
    ? `${view.title}, ${tag}: ${view.status}`
    : `${view.title}, ${tag}: replay`;
  $("scores").textContent = view.scores || "";
  $("result").textContent = view.result || "";
  const moves = $("moves");
  moves.innerHTML = "";
  view.moves.forEach((text, i) => {
    const item = document.createElement("li");
    item.textContent = text.replace(/^move \d+(\/\d+)?: /, "");
    if (view.kind === "replay" && i + 1 === view.index) item.className = "current";
    moves.appendChild(item);
  });
  moves.scrollTop = moves.scrollHeight;
  if (view.kind === "live") {
    $("save").href = `/api/games/${view.id}/record`;
    $("save").hidden = !view.record_open;
    $("save-later").hidden = view.record_open;
    showLegal();
    schedule();
  } else {
    $("position").textContent = `${view.index}/${view.length}`;
    $("legal").innerHTML = "";
    $("selection").textContent = "";
  }
}

function moveButton(move) {
  const button = document.createElement("button");
  button.textContent = move.text;
  button.dataset.action = move.action;
  button.addEventListener("click", () => sendMove(move.action));
  return button;
}

function candidates(keys) {
  return state.view.legal.filter((m) => keys.every((k) => m.targets.includes(k)));
}

function showLegal() {
  const view = state.view;
  const box = $("legal");
  box.innerHTML = "";
  view.legal.forEach((m) => box.appendChild(moveButton(m)));
  const remaining = candidates(state.selection);
  const sel = $("selection");
  sel.innerHTML = "";
  if (state.selection.length) {
    sel.appendChild(document.createTextNode("matching moves (click one, or another board element): "));
    remaining.forEach((m) => sel.appendChild(moveButton(m)));
  } else if (view.legal.length) {
    sel.textContent = "click a highlighted element on the board, or a move below";
  }
  const lit = new Set(remaining.flatMap((m) => m.targets));
  for (const element of $("board").querySelectorAll("[data-key]")) {
    const key = element.dataset.key;
    element.classList.toggle("legal", lit.has(key) && !state.selection.includes(key));
    element.classList.toggle("picked", state.selection.includes(key));
  }
}

function boardClick(event) {
  const view = state.view;
  if (!view || view.kind !== "live") return;
  if (!view.legal.length) { showError("it is not your move"); return; }
  const keys = document.elementsFromPoint(event.clientX, event.clientY)
    .filter((e) => e.dataset && e.dataset.key && $("board").contains(e))
    .map((e) => e.dataset.key);
  if (!keys.length) return;
  for (const key of keys) {
    if (state.selection.includes(key)) return;
    const wanted = [...state.selection, key];
    const found = candidates(wanted);
    if (!found.length) continue;
    showError("");
    if (found.length === 1) { sendMove(found[0].action); return; }
    state.selection = wanted;
    showLegal();
    return;
  }
  showError(`not a legal move: ${keys[0]}${state.selection.length ? " with " + state.selection.join(", ") : ""}`);
  state.selection = [];
  showLegal();
}

async function sendMove(action) {
  const v = state.view;
  show(await api("POST", `/api/games/${v.id}/move?${currentViewParam()}`, { action }));
}

async function stepAgent() {
  const v = state.view;
  if (!v || v.kind !== "live" || !v.agent_to_move || state.stepping) return;
  state.stepping = true; // one step at a time: the server answers 409 to a second
  const stale = () => !state.view || state.view.id !== v.id; // another game or replay was opened meanwhile
  let view;
  try {
    view = await api("POST", `/api/games/${v.id}/step?${currentViewParam()}`);
  } catch (e) {
    if (stale()) showError(""); // the closed game's answer is no news for the one shown now
    throw e;
  } finally {
    state.stepping = false;
    if (stale()) schedule(); // the game shown now waited for this step to end
  }
  if (!stale()) show(view);
}

function schedule() {
  clearTimeout(state.timer);
  const v = state.view;
  if (!v || v.kind !== "live" || !v.agent_to_move || state.paused || state.stepping) return;
  state.timer = setTimeout(() => stepAgent().catch(() => {}), Number($("speed").value));
}

async function openRecord() {
  const file = $("record-file").files[0];
  if (!file) { showError("choose a record file first"); return; }
  const text = await file.text();
  const view = await api("POST", "/api/replays", { text });
  closeCurrent();
  $("view").innerHTML = "";
  show(view);
}

// Close the game or replay shown so far (its agent stops thinking, its place is freed).
function closeCurrent() {
  const v = state.view;
  if (!v) return;
  fetch(v.kind === "live" ? `/api/games/${v.id}` : `/api/replays/${v.id}`, { method: "DELETE" }).catch(() => {});
}

async function goTo(index) {
  const v = state.view;
  if (!v || v.kind !== "replay") return;
  const target = Math.max(0, Math.min(v.length, index));
  show(await api("GET", `/api/replays/${v.id}?index=${target}&${currentViewParam()}`));
}

function selectTab(button) {
  for (const tab of document.querySelectorAll(".tab")) {
    tab.classList.toggle("active", tab === button);
    $(tab.dataset.panel).hidden = tab !== button;
  }
}

window.addEventListener("DOMContentLoaded", () => {
  for (const tab of document.querySelectorAll(".tab")) tab.addEventListener("click", () => selectTab(tab));
  $("game").addEventListener("change", fillGame);
  $("players").addEventListener("change", fillSeats);
  $("start").addEventListener("click", () => startGame().catch(() => {}));
  $("open-record").addEventListener("click", () => openRecord().catch(() => {}));
  $("board").addEventListener("click", boardClick);
  $("view").addEventListener("change", () => refresh().catch(() => {}));
  $("speed").addEventListener("change", schedule);
  $("pause").addEventListener("click", () => {
    state.paused = !state.paused;
    $("pause").textContent = state.paused ? "Play" : "Pause";
    schedule();
  });
  $("step").addEventListener("click", () => stepAgent().catch(() => {}));
  $("first").addEventListener("click", () => goTo(0).catch(() => {}));
  $("back").addEventListener("click", () => goTo(state.view.index - 1).catch(() => {}));
  $("forward").addEventListener("click", () => goTo(state.view.index + 1).catch(() => {}));
  $("last").addEventListener("click", () => goTo(state.view.length).catch(() => {}));
  loadInfo().catch(() => {});
});
