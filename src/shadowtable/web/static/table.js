// The table page's game socket: hello with the last version held, server-rendered fragments
// swapped in, acts sent with ids (kept and resent after a reconnect: the server answers a
// repeated id with its ack and never plays it twice), reconnection with jittered backoff.
// Everything the server sends as text is put in with textContent; only the fragments, which the
// server renders from this seat's own view, are put in as HTML.

import { alertDecision, setupAlerts, showTurnIcon, showYourMove } from "./alerts.js";

const body = document.body;
const tableId = body.dataset.table;
const FRAGMENTS = ["board", "panel", "goal", "status", "actions", "rule", "summary"];

const state = {
  v: Number(body.dataset.v || 0),
  turn: null,
  socket: null,
  attempt: 0,
  pending: null, // {id, frame}: the act sent and not yet acknowledged
  stopped: false,
  pendingSeat: null,
  clock: null, // {msLeft, running, at}
  clocks: null, // every seat's: [{seat, ms_left, running}], with `at` the time they came
  fast: false, // the bots fast-forward now
  undoId: null, // the id of the undo frame sent last
  presence: [],
  decisionShown: null, // the turn of the last decision of this seat the page announced
  unread: 0, // chat lines come while the chat was not in view
};

function $(id) {
  return document.getElementById(id);
}

function setConnection(text, ok) {
  const el = $("conn");
  el.textContent = text;
  el.classList.toggle("ok", ok);
}

function notice(text, kind = "info") {
  const el = document.createElement("p");
  el.className = `notice notice-${kind}`;
  el.textContent = text;
  const box = $("notices");
  box.prepend(el);
  while (box.children.length > 4) box.lastChild.remove();
}

function connect() {
  if (state.stopped) return;
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/ws/${tableId}`);
  state.socket = socket;
  setConnection("connecting…", false);
  socket.addEventListener("open", () => {
    state.attempt = 0;
    socket.send(JSON.stringify({ t: "hello", v: state.v, html: true }));
  });
  socket.addEventListener("message", (event) => {
    let message;
    try {
      message = JSON.parse(event.data);
    } catch {
      return;
    }
    handle(message);
  });
  socket.addEventListener("close", (event) => {
    state.socket = null;
    // 4404: no such table, 4403: refused (a seat given up, a foreign page): never retried.
    // 4429: too many frames or connections: retried after a pause. Anything else: a lost
    // connection, retried with a growing, jittered delay.
    if (event.code === 4404 || event.code === 4403 || event.code === 1008) {
      state.stopped = true;
      setConnection("disconnected", false);
      notice(event.code === 4404 ? "This table does not exist." : "The server refused this connection.", "error");
      return;
    }
    if (state.stopped) return;
    let delay = Math.min(30000, 500 * 2 ** state.attempt) * (0.5 + Math.random());
    if (event.code === 4429) {
      delay = Math.max(delay, 10000 + 5000 * Math.random());
      notice("Too many messages or connections from here: reconnecting after a pause.", "error");
    }
    state.attempt += 1;
    setConnection(`reconnecting in ${Math.ceil(delay / 1000)} s…`, false);
    setTimeout(connect, delay);
  });
}

function send(message) {
  if (state.socket && state.socket.readyState === WebSocket.OPEN) {
    state.socket.send(JSON.stringify(message));
    return true;
  }
  return false;
}

function handle(message) {
  switch (message.t) {
    case "welcome":
      setConnection(message.seat === null ? "connected (watching)" : "connected", true);
      (message.chat || []).forEach(chatLine);
      if (state.pending) send(state.pending.frame); // same id: played at most once
      break;
    case "view":
      onView(message);
      break;
    case "ack":
      if (state.pending && state.pending.id === message.id) state.pending = null;
      break;
    case "reject":
      if (message.retry_after) {
        // over a rate: nothing was done; an act still pending is sent again after the pause
        notice(`Slow down: ${message.why}`, "error");
        if (state.pending && state.pending.id === message.id) {
          const frame = state.pending.frame;
          setTimeout(() => send(frame), message.retry_after * 1000);
        }
        break;
      }
      if (state.undoId !== null && state.undoId === message.id) {
        state.undoId = null;
        notice(`Not undone: ${message.why}`, "error");
        break;
      }
      if (state.pending && state.pending.id === message.id) state.pending = null;
      notice(`Not played: ${message.why}`, "error");
      break;
    case "presence":
      state.presence = message.presence;
      showPresence();
      break;
    case "notice":
      notice(message.text);
      if (message.fast) {
        state.fast = true;
        showFastForward();
      }
      if (message.rematch) showRematch(message.rematch);
      break;
    case "chat":
      chatLine(message);
      break;
    case "over":
      onOver(message);
      break;
    case "refused":
      state.stopped = true;
      notice(`Seat refused: ${message.why}. Reload the page to watch.`, "error");
      break;
    default:
      break;
  }
}

// A view replaces fragments the player may be working in. What they were doing there is put
// back: the focused control (keyboard players keep their place), the groups of choices they had
// opened and, while the same decision is still theirs, the move they were typing.
function groupName(summary) {
  return summary.textContent.replace(/\s*\(\d+\)\s*$/, "");
}

function controlName(el) {
  return el.getAttribute("aria-label") || el.textContent.trim();
}

function placeInFragments() {
  const active = document.activeElement;
  const fragment = active && active !== body ? active.closest?.("[id^='frag-']") : null;
  return {
    fragment: fragment ? fragment.id : null,
    act: fragment ? (active.dataset.act ?? null) : null,
    control: fragment ? controlName(active) : null,
    name: fragment ? active.getAttribute("name") : null,
    open: [...document.querySelectorAll("#frag-actions details[open] > summary")].map(groupName),
    typed: document.querySelector("#frag-actions input[name=notation]")?.value ?? "",
    turn: state.turn,
  };
}

function restorePlace(place) {
  for (const summary of document.querySelectorAll("#frag-actions details > summary")) {
    if (place.open.includes(groupName(summary))) summary.parentElement.open = true;
  }
  const input = document.querySelector("#frag-actions input[name=notation]");
  if (input && place.typed && place.turn !== null && place.turn === state.turn) input.value = place.typed;
  const root = place.fragment ? $(place.fragment) : null;
  if (!root || root.contains(document.activeElement)) return;
  let el = null;
  if (place.act !== null) {
    const acts = [...root.querySelectorAll("[data-act]")];
    el = acts.find((e) => e.dataset.act === place.act && controlName(e) === place.control);
    el = el || acts.find((e) => controlName(e) === place.control);
  } else if (place.name) {
    el = root.querySelector(`[name="${CSS.escape(place.name)}"]`);
  }
  if (el) el.focus({ preventScroll: true });
}

// Keyboard focus goes to a new decision of this seat (its first choice, else its heading), unless
// the player is typing somewhere else on the page (the chat).
function typingElsewhere() {
  const active = document.activeElement;
  if (!active || active === body || $("frag-actions").contains(active)) return false;
  return active.matches(
    "input:not([type=button]):not([type=submit]):not([type=radio]), textarea, select, [contenteditable]",
  );
}

function focusDecision() {
  if (typingElsewhere()) return;
  const root = $("frag-actions");
  const target =
    root.querySelector(".choices > li > button, .choices > li > details > summary") || root.querySelector("h2");
  if (target) target.focus();
}

function announceDecision(message) {
  const yours = Boolean(message.legal) && message.turn !== null && message.turn !== undefined;
  showTurnIcon(yours);
  if (!yours || message.turn === state.decisionShown) return;
  state.decisionShown = message.turn;
  focusDecision();
  alertDecision(document.title, $("frag-status").textContent.trim());
}

function onView(message) {
  const place = placeInFragments();
  state.v = message.v;
  state.turn = message.turn;
  body.dataset.v = String(message.v);
  body.dataset.turn = message.turn === null || message.turn === undefined ? "" : String(message.turn);
  state.pendingSeat = message.pending ? message.pending.seat : null;
  const html = message.html || {};
  for (const name of FRAGMENTS) {
    if (name in html) $(`frag-${name}`).innerHTML = html[name];
  }
  restorePlace(place);
  if ("log" in html) {
    const log = $("frag-log");
    if (html.log_mode === "replace") log.innerHTML = html.log;
    else log.insertAdjacentHTML("beforeend", html.log);
    filterLog();
    log.scrollTop = log.scrollHeight;
  }
  markChanges();
  const kind = $("frag-status").querySelector("[data-kind]")?.dataset.kind;
  if (kind && kind !== "open") body.dataset.status = kind === "over" ? "over" : "playing";
  if (message.clock) {
    state.clock = { msLeft: message.clock.ms_left, running: message.clock.running, at: performance.now() };
  } else {
    state.clock = null;
  }
  state.clocks = message.clocks ? { list: message.clocks, at: performance.now() } : null;
  state.fast = Boolean(message.fast_forward);
  showUndo(message.undo || 0);
  showClock();
  showPresence();
  showOut(message.out);
  showYourMove(Boolean(message.legal));
  announceDecision(message);
}

const HEADLINE = { won: "You won", lost: "You lost", drew: "Draw" };

// The end, from the game's own result per seat (the `over` message): the banner at the top says
// how it ended for this seat (who won, for spectators), the "Game over" box each seat's result.
function onOver(message) {
  body.dataset.status = "over";
  body.dataset.over = "1";
  $("over").hidden = false;
  $("out-notice").hidden = true;
  const results = $("results");
  results.replaceChildren();
  const list = message.results || [];
  for (const r of list) {
    const li = document.createElement("li");
    li.dataset.resultSeat = r.seat;
    li.textContent = `${r.name}: ${r.result} - ${r.why}`;
    results.append(li);
  }
  showBanner(list);
  const leave = document.querySelector("form.leave");
  if (leave) leave.remove();
  $("fast-forward")?.setAttribute("hidden", "");
  $("undo-move")?.setAttribute("hidden", "");
  showTurnIcon(false);
}

function showBanner(list) {
  const seat = body.dataset.seat === "" ? null : Number(body.dataset.seat);
  const mine = list.find((r) => r.seat === seat);
  const winners = list.filter((r) => r.result === "won").map((r) => r.name);
  let head = winners.length ? `${winners.join(", ")} won` : "Nobody won";
  let why = (list.find((r) => r.result === "won") || list[0] || { why: "" }).why;
  if (mine) {
    head = HEADLINE[mine.result];
    why = mine.why;
  } else if (list.length && list.every((r) => r.result === "drew")) {
    head = "Draw";
  }
  $("end-head").textContent = head;
  $("end-why").textContent = why;
  $("end-banner").dataset.result = mine ? mine.result : "";
  $("end-banner").hidden = false;
}

// A seat out of a game that goes on is told so at once, and why; the most detailed words it was
// given stay (a later view says it is out without repeating the event that said why).
function showOut(text) {
  const el = $("out-notice");
  if (!text || body.dataset.over === "1") {
    if (!text) el.hidden = true;
    return;
  }
  if (el.hidden || text.length >= el.textContent.length) el.textContent = text;
  el.hidden = false;
}

function showRematch(id) {
  const p = $("rematch-link");
  p.replaceChildren();
  const a = document.createElement("a");
  const seat = body.dataset.seat;
  a.href = seat === "" ? `/t/${id}` : `/t/${id}/seat/${seat}`;
  a.textContent = "A rematch is open: take your seat";
  p.append(a);
  p.hidden = false;
}

function clockText(ms) {
  const s = Math.ceil(Math.max(0, ms) / 1000);
  const two = (n) => String(n).padStart(2, "0");
  if (s >= 86400) return `${Math.floor(s / 86400)} d ${Math.floor((s % 86400) / 3600)} h`; // turn-based tables
  if (s >= 3600) return `${Math.floor(s / 3600)}:${two(Math.floor((s % 3600) / 60))}:${two(s % 60)}`;
  return `${Math.floor(s / 60)}:${two(s % 60)}`;
}

function seatClock(seat) {
  if (!state.clocks) return "";
  const c = state.clocks.list.find((x) => x.seat === seat);
  if (!c || c.ms_left === null || c.ms_left === undefined) return "";
  const spent = c.running && body.dataset.over !== "1" ? performance.now() - state.clocks.at : 0;
  return `, clock ${clockText(c.ms_left - spent)}${c.running ? " running" : ""}`;
}

// Undo: offered only while the server says this seat may take back its last decision (the view's
// `undo`: how many it may); the server checks it again.
function showUndo(count) {
  const button = $("undo-move");
  if (!button) return;
  button.hidden = !(count > 0) || body.dataset.over === "1";
  button.disabled = false;
}

// Fast-forward: offered to a seated player while a bot decides (the server checks it again).
function showFastForward() {
  const button = $("fast-forward");
  if (!button) return;
  const deciding = state.presence.find((p) => p.seat === state.pendingSeat);
  const botsOnly = deciding !== undefined && deciding.bot_playing && body.dataset.status === "playing";
  button.hidden = !botsOnly;
  button.disabled = state.fast;
  button.textContent = state.fast ? "Fast-forwarding the bots" : "Fast-forward the bots";
}

function showPresence() {
  const list = $("presence");
  if (!state.presence.length) return;
  list.replaceChildren();
  for (const p of state.presence) {
    const li = document.createElement("li");
    li.dataset.seat = p.seat;
    const waiting = state.pendingSeat === p.seat;
    const where = p.bot_playing ? (p.kind === "bot" ? "bot" : "away: a bot plays") : p.here ? "here" : "not connected";
    li.textContent = `${p.name}: ${where}${seatClock(p.seat)}${waiting ? " - deciding now" : ""}`;
    li.classList.toggle("deciding", waiting);
    li.classList.toggle("away", !p.here && !p.bot_playing);
    list.append(li);
    const link = document.querySelector(`#seat-links li[data-seat="${p.seat}"] .seat-name`);
    if (link) link.textContent = p.name;
  }
  showFastForward();
}

function showClock() {
  const el = $("clock");
  if (!state.clock) {
    el.hidden = true;
    return;
  }
  const spent = state.clock.running ? performance.now() - state.clock.at : 0;
  const left = Math.max(0, state.clock.msLeft - spent);
  el.textContent = `your time ${clockText(left)}${state.clock.running ? ", running" : ""}`;
  el.hidden = false;
  el.classList.toggle("low", left < 30000);
}

function chatLine(message) {
  const li = document.createElement("li");
  li.textContent = `${message.name}: ${message.text}`;
  $("chat-lines").append(li);
  if (!chatInView()) state.unread += 1;
  showUnread();
}

// The chat is in view when its tab is chosen and the page is visible; lines that come otherwise
// are counted on the chat tab until it is.
function chatInView() {
  return !$("pane-chat").hidden && !document.hidden;
}

function showUnread() {
  if (chatInView()) state.unread = 0;
  const badge = $("chat-unread");
  badge.textContent = state.unread ? `${state.unread} new` : "";
  badge.hidden = !state.unread;
}

// The side tabs (log, chat, players): one pane shown at a time, arrow keys move between tabs.
function chooseTab(tab, focus = false) {
  for (const other of document.querySelectorAll("[role=tab]")) {
    const chosen = other === tab;
    other.setAttribute("aria-selected", String(chosen));
    other.tabIndex = chosen ? 0 : -1;
    $(other.getAttribute("aria-controls")).hidden = !chosen;
  }
  if (focus) tab.focus();
  showUnread();
}

function setupTabs() {
  const tabs = [...document.querySelectorAll("[role=tab]")];
  for (const tab of tabs) {
    tab.addEventListener("click", () => chooseTab(tab));
    tab.addEventListener("keydown", (event) => {
      const step = { ArrowRight: 1, ArrowLeft: -1 }[event.key];
      if (!step) return;
      event.preventDefault();
      chooseTab(tabs[(tabs.indexOf(tab) + step + tabs.length) % tabs.length], true);
    });
  }
  document.addEventListener("visibilitychange", showUnread);
}

// The log's filter: every line, only the lines about this seat, only those told on the public
// channel (every player saw them), only those told to this seat alone, or those holding a text.
const LOG_SHOWS = {
  all: () => true,
  mine: (li) => li.dataset.mine === "1",
  public: (li) => li.dataset.private !== "1",
  private: (li) => li.dataset.private === "1",
};

function filterLog() {
  const show = document.querySelector("input[name=log-show]:checked")?.value || "all";
  const find = ($("log-find")?.value || "").trim().toLowerCase();
  for (const li of $("frag-log").children) {
    const shown = (LOG_SHOWS[show] || LOG_SHOWS.all)(li) && (!find || li.textContent.toLowerCase().includes(find));
    li.hidden = !shown;
  }
}

// Board elements that changed since this seat's last decision, as the summary names them,
// are highlighted (the animation is off where the reader asks for reduced motion).
function markChanges() {
  const list = document.querySelector("#frag-summary [data-marks]");
  const marks = list ? list.dataset.marks.split("|").filter(Boolean) : [];
  for (const mark of marks) {
    try {
      for (const el of document.querySelectorAll(`#frag-board ${mark}, #frag-panel ${mark}`)) el.classList.add("changed");
    } catch {
      // a selector this page cannot read: nothing to highlight
    }
  }
}

function newId() {
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
}

function act(payload) {
  if (state.turn === null || state.turn === undefined) {
    notice("It is not your decision now.", "error");
    return;
  }
  const id = newId();
  const frame = { t: "act", id, turn: state.turn, ...payload };
  state.pending = { id, frame };
  state.turn = null; // one act per view: the next view brings the next turn
  body.dataset.turn = ""; // and the page says so until that view (or the refusal's) comes
  for (const el of document.querySelectorAll("[data-act]")) el.setAttribute("aria-disabled", "true");
  if (!send(frame)) notice("Not connected: your choice is sent when the connection is back.");
}

document.addEventListener("click", (event) => {
  if (event.target.closest?.("#undo-move")) {
    const id = newId();
    if (send({ t: "undo", id })) {
      state.undoId = id;
      event.target.closest("#undo-move").disabled = true;
    }
    return;
  }
  if (event.target.closest?.("#fast-forward")) {
    if (send({ t: "fast" })) event.target.closest("#fast-forward").disabled = true;
    return;
  }
  const target = event.target.closest("[data-act]");
  if (!target || target.getAttribute("aria-disabled") === "true") return;
  event.preventDefault();
  act({ action: Number(target.dataset.act) });
});

document.addEventListener("keydown", (event) => {
  if (event.key !== "Enter" && event.key !== " ") return;
  const target = event.target.closest?.("[data-act]");
  if (!target || target.tagName === "BUTTON") return; // buttons click themselves
  event.preventDefault();
  if (target.getAttribute("aria-disabled") === "true") return;
  act({ action: Number(target.dataset.act) }); // SVG elements have no click(): act directly
});

document.addEventListener("submit", (event) => {
  const form = event.target;
  if (form.matches("[data-notation]")) {
    event.preventDefault();
    const text = form.elements.notation.value.trim();
    if (text) act({ notation: text });
  } else if (form.id === "chat-form") {
    event.preventDefault();
    const text = form.elements.text.value.trim();
    if (text && send({ t: "chat", text })) form.elements.text.value = "";
  }
});

setInterval(() => {
  if (state.clock && state.clock.running) showClock();
  if (state.clocks && state.clocks.list.some((c) => c.running)) showPresence();
}, 1000);
setInterval(() => send({ t: "ping" }), 25000);
document.addEventListener("visibilitychange", () => {
  if (!document.hidden && !state.socket && !state.stopped) connect();
});

document.addEventListener("input", (event) => {
  if (event.target.matches("input[name=log-show], #log-find")) filterLog();
});

setupTabs();
markChanges();
setupAlerts((text) => notice(text, "error"));
connect();
