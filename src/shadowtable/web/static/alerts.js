// Turn alerts of the table page: the favicon shows a badge while a decision is yours and, when the
// player turns them on (each choice remembered in this browser), a short tone on their turn and a
// desktop notification when their turn comes while the tab is hidden.  Notifications are asked
// for only when the player presses "Alert me"; nothing plays or shows unless they chose it.

const SOUND_KEY = "shadowtable.sound";
const NOTIFY_KEY = "shadowtable.notify";
const ICON = "/static/favicon.svg";
const ICON_TURN = "/static/favicon-turn.svg";
let audio = null;

function isOn(key) {
  try {
    return localStorage.getItem(key) === "on";
  } catch {
    return false;
  }
}

function remember(key, on) {
  try {
    localStorage.setItem(key, on ? "on" : "off");
  } catch {
    // storage refused (a private window): the choice holds for this page only
  }
}

function notificationsAllowed() {
  return "Notification" in window && Notification.permission === "granted";
}

function showPressed(button, on) {
  if (button) button.setAttribute("aria-pressed", on ? "true" : "false");
}

// What the tab shows: a decision of this page's table (``here``, ``move``) and how many of the
// player's tables wait for them (``waiting``, from the "My tables" badge), together.
const shown = { here: false, move: false, waiting: 0, base: null };

function baseTitle() {
  if (shown.base === null) shown.base = document.title.replace(/^\(\d+\) /, "").replace(/^Your move - /, "");
  return shown.base;
}

function showTab() {
  const title = `${shown.waiting > 0 ? `(${shown.waiting}) ` : ""}${shown.move ? "Your move - " : ""}${baseTitle()}`;
  if (document.title !== title) document.title = title;
  const link = document.getElementById("favicon");
  if (!link) return;
  const href = shown.here || shown.waiting > 0 ? ICON_TURN : ICON;
  if (link.getAttribute("href") !== href) link.setAttribute("href", href);
}

/** The favicon with a badge while ``yours`` (or while any of the player's tables waits), plain otherwise. */
export function showTurnIcon(yours) {
  shown.here = yours;
  showTab();
}

/** "Your move - " before the page's title while ``on``. */
export function showYourMove(on) {
  shown.move = on;
  showTab();
}

/** ``count`` tables wait for the player: "(count) " before the title, and the favicon's badge. */
export function showWaiting(count) {
  shown.waiting = count;
  showTab();
}

/** It became the player's turn at another table: the tone and the notification they turned on. */
export function alertTable(table) {
  if (isOn(SOUND_KEY)) tone();
  if (!document.hidden || !isOn(NOTIFY_KEY) || !notificationsAllowed()) return;
  const shownNote = new Notification(`Your turn: ${table.title}`, {
    body: `Table ${table.id} waits for your decision.`,
    tag: `shadowtable-/t/${table.id}`,
    icon: ICON_TURN,
  });
  shownNote.onclick = () => {
    window.focus();
    window.location.assign(`/t/${encodeURIComponent(table.id)}`);
    shownNote.close();
  };
}

function audioContext() {
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return null;
  if (!audio) audio = new Context();
  if (audio.state === "suspended") audio.resume().catch(() => {});
  return audio;
}

/** A short, soft two-note tone (no sound file). */
function tone() {
  const context = audioContext();
  if (!context) return;
  const start = context.currentTime;
  const gain = context.createGain();
  gain.gain.setValueAtTime(0.0001, start);
  gain.gain.exponentialRampToValueAtTime(0.15, start + 0.02);
  gain.gain.exponentialRampToValueAtTime(0.0001, start + 0.32);
  gain.connect(context.destination);
  [660, 880].forEach((frequency, i) => {
    const oscillator = context.createOscillator();
    oscillator.type = "sine";
    oscillator.frequency.value = frequency;
    oscillator.connect(gain);
    oscillator.start(start + i * 0.12);
    oscillator.stop(start + 0.12 + i * 0.2);
  });
}

/** A new decision is this seat's: the tone and the notification the player turned on. */
export function alertDecision(title, text) {
  if (isOn(SOUND_KEY)) tone();
  if (!document.hidden || !isOn(NOTIFY_KEY) || !notificationsAllowed()) return;
  const heading = title.replace(/^\(\d+\) /, ""); // without the "My tables" count before it
  const shown = new Notification(heading, { body: text, tag: `shadowtable-${location.pathname}`, icon: ICON_TURN });
  shown.onclick = () => {
    window.focus();
    shown.close();
  };
}

async function turnNotificationsOn(say) {
  if (!("Notification" in window)) {
    say("This browser cannot show notifications.");
    return false;
  }
  const permission =
    Notification.permission === "default" ? await Notification.requestPermission() : Notification.permission;
  if (permission !== "granted") say("Notifications are blocked for this site: allow them in the browser to use this.");
  return permission === "granted";
}

/** Wire the page's two alert toggles (``say``: how a message is shown to the player). */
export function setupAlerts(say) {
  const sound = document.getElementById("sound-toggle");
  const notify = document.getElementById("notify-toggle");
  showPressed(sound, isOn(SOUND_KEY));
  showPressed(notify, isOn(NOTIFY_KEY) && notificationsAllowed());
  sound?.addEventListener("click", () => {
    const on = !isOn(SOUND_KEY);
    remember(SOUND_KEY, on);
    showPressed(sound, on);
    if (on) audioContext(); // created in the click: browsers let a page play sound after one
  });
  notify?.addEventListener("click", async () => {
    const on = notify.getAttribute("aria-pressed") !== "true" && (await turnNotificationsOn(say));
    remember(NOTIFY_KEY, on);
    showPressed(notify, on);
  });
  // a tone remembered from an earlier visit can play once the player has touched the page
  const unlock = () => {
    if (isOn(SOUND_KEY)) audioContext();
  };
  document.addEventListener("pointerdown", unlock, { once: true });
  document.addEventListener("keydown", unlock, { once: true });
}
