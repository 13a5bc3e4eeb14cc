// The browser page of Dvorak MUSH: a scrollback, a command line, a login form and panels
// drawn from the GMCP packages the server sends (docs/players.md shows their JSON). The
// protocol with server/web.py is one WebSocket of JSON objects (docs: /work notes, issue 16):
//   to the server:   {"line": "..."}, {"cols": N}, {"resume": token}
//   from the server: {"text": "..."}, {"gmcp": "Package.Name", "data": {...}}, {"token": t|null},
//                    {"echo": false|true}, or (the page asks with ?batch=1) an array of these
//                    sent together, in order
// The text is the whole truth; the panels are a view of it and every button in them sends a
// command the player could have typed. Whatever a player wrote (names, chat, card names and
// texts, room names) reaches the page only as text: textContent, or ansi_up's escaped output.

import { AnsiUp } from "./vendor/ansi_up.js";

const SCROLLBACK_LIMIT = 2000;
const HISTORY_LIMIT = 200;
const TOKEN_KEY = "dvorak-mush.token";
const LANGUAGE_KEY = "dvorak-mush.language";
const COLS_MIN = 20;
const COLS_MAX = 250;
/** The smallest a text the server laid out in columns of its own is shrunk to, to fit across
 * the scrollback whole, as a share of the scrollback's font size; narrower than that (a phone),
 * it wraps as prose does. */
const WHOLE_SMALLEST = 0.7;
/** ANSI escape sequences, which take no room on the screen. */
const ANSI_CODES = /\x1b\[[0-9;]*[A-Za-z]/g;

export const $ = (id) => document.getElementById(id);
const scrollback = $("scrollback");
const commandForm = $("command-form");
const commandInput = $("command");
const loginForm = $("login");
const panels = $("panels");
const statusLine = $("status");
const reconnectButton = $("reconnect");
const roomName = $("room-name");
const leaveButton = $("leave-room");
const languageMenu = $("login-language");

// ---------------------------------------------------------------------------------------------
// The page's own texts in the reader's language (the server's text comes in it already).

/** The page's own texts in the reader's language, by their English (from /i18n/<code>.json). */
let pageTexts = {};

const owns = (object, key) => Object.prototype.hasOwnProperty.call(object, key);

/** ``text`` (one of the page's own, in English) in the reader's language, its {placeholders}
 * filled from ``params``. */
export function t(text, params = {}) {
  const shown = owns(pageTexts, text) ? pageTexts[text] : text;
  return shown.replace(/\{(\w+)\}/g, (whole, key) => (owns(params, key) ? String(params[key]) : whole));
}

/** The language last asked for: an answer for one asked for before it is dropped. */
let languageWanted = null;

/** Write the page's own labels in language ``code`` from now on, as the server writes to the
 * player (see the menu and the server's {"language"} message). */
async function useLanguage(code) {
  languageWanted = code;
  let texts;
  try {
    const response = await fetch(`/i18n/${encodeURIComponent(code)}.json`);
    texts = response.ok ? await response.json() : null;
  } catch {
    texts = null;
  }
  // Unreachable just now, or asked again meanwhile: the labels stay as they are.
  if (languageWanted !== code || !texts || typeof texts !== "object" || Array.isArray(texts)) return;
  pageTexts = texts;
  document.documentElement.lang = code;
  if ([...languageMenu.options].some((option) => option.value === code)) languageMenu.value = code;
  for (const node of document.querySelectorAll("[data-i18n]")) {
    if (node.dataset.english === undefined) node.dataset.english = node.textContent;
    node.textContent = t(node.dataset.english);
  }
  for (const node of document.querySelectorAll("[data-i18n-label]")) {
    if (node.dataset.englishLabel === undefined) node.dataset.englishLabel = node.getAttribute("aria-label");
    node.setAttribute("aria-label", t(node.dataset.englishLabel));
  }
  setStatus(statusLine.dataset.state, state.status.text, state.status.params);
  // The lobby's and the room tabs' labels are made in the language of their time.
  for (const id of ["lobby", "room-tabs", "view-table", "view-rules", "view-results"]) if ($(id)) $(id).remove();
  renderLobby();
  showRoom();
  for (const prefix of GAME_RENDERERS.keys()) if ([...state.views.keys()].some((view) => view.startsWith(`${prefix}.`))) renderGame(prefix);
}

// ---------------------------------------------------------------------------------------------
// Small DOM helpers: every string goes in as text.

export function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key === "onclick") node.addEventListener("click", value);
    else if (key in node && typeof value !== "string") node[key] = value;
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(typeof child === "string" ? document.createTextNode(child) : child);
  }
  return node;
}

/** A button that sends ``command`` (as if typed) when pressed. */
export function commandButton(id, label, command, props = {}) {
  return el("button", { type: "button", id, ...props, onclick: () => sendCommand(command) }, label);
}

/** The classes a MUSH colour code (``hr``, ``c``, ``hwB``...) stands for: the same ansi-*
 * classes the scrollback uses. A code that is not one gives none. */
const COLOUR_LETTERS = "xrgybmcw";
const COLOUR_NAMES = ["black", "red", "green", "yellow", "blue", "magenta", "cyan", "white"];
export function colourClasses(code) {
  if (typeof code !== "string" || !/^[hufinxrgybmcwXRGYBMCW]{1,4}$/.test(code)) return "";
  const classes = [];
  const bright = code.includes("h");
  for (const letter of code) {
    const index = COLOUR_LETTERS.indexOf(letter.toLowerCase());
    if (letter === "h") classes.push("ansi-bold");
    else if (letter === "u") classes.push("ansi-underline");
    else if (index >= 0 && letter === letter.toLowerCase())
      classes.push(`ansi-${bright ? "bright-" : ""}${COLOUR_NAMES[index]}-fg`);
    else if (index >= 0) classes.push(`ansi-${COLOUR_NAMES[index]}-bg`);
  }
  return classes.join(" ");
}

// ---------------------------------------------------------------------------------------------
// The scrollback: the server's text, its ANSI colours turned into ansi-* classes by ansi_up.

/** ansi_up with classes for everything: the page's Content-Security-Policy forbids inline
 * styles, and ansi_up writes bold, faint, italic, underline and 24-bit colours as style
 * attributes even with use_classes. The text is escaped by ansi_up itself. */
class ClassAnsiUp extends AnsiUp {
  transform_to_html(fragment) {
    const text = this.escape_txt_for_html(fragment.text);
    if (!text.length) return text;
    const classes = [];
    if (fragment.bold) classes.push("ansi-bold");
    if (fragment.faint) classes.push("ansi-faint");
    if (fragment.italic) classes.push("ansi-italic");
    if (fragment.underline) classes.push("ansi-underline");
    // 256-colour and 24-bit colours have no class (the server sends only the 16 colours).
    if (fragment.fg && fragment.fg.class_name !== "truecolor") classes.push(`${fragment.fg.class_name}-fg`);
    if (fragment.bg && fragment.bg.class_name !== "truecolor") classes.push(`${fragment.bg.class_name}-bg`);
    return classes.length ? `<span class="${classes.join(" ")}">${text}</span>` : text;
  }
}

const ansi = new ClassAnsiUp();
ansi.use_classes = true;
ansi.escape_html = true;
ansi.url_allowlist = {}; // no links from the server's text

function nearBottom() {
  return scrollback.scrollHeight - scrollback.scrollTop - scrollback.clientHeight < 40;
}

/** Whether the scrollback follows its newest line: until the reader scrolls up, and again
 * once they scroll back down. It keeps following when its size changes (a phone turned,
 * its on-screen keyboard opened): the lines wrap anew and the newest stays in sight. */
let following = true;
/** Until when a scroll is the reader's (a wheel, a touch, a key or the scroll bar just used):
 * only those change whether the newest line is followed, not those of the layout (a resize,
 * and the lines wrapped anew after it, move the text under a reader who did nothing). */
let readerScrolls = 0;
for (const kind of ["wheel", "touchmove", "keydown", "pointerdown"]) {
  scrollback.addEventListener(kind, () => (readerScrolls = performance.now() + 1000), { passive: true });
}
scrollback.addEventListener("scroll", () => {
  if (performance.now() < readerScrolls) following = nearBottom();
});

function showNewest() {
  scrollback.scrollTop = scrollback.scrollHeight;
  following = true;
}

function addEntry(entry) {
  const follow = following || nearBottom();
  scrollback.append(entry);
  while (scrollback.childElementCount > SCROLLBACK_LIMIT) scrollback.firstElementChild.remove();
  if (follow) showNewest();
}

/** Marks a line the server sends to be kept whole (a usage line; every line of a board sent
 * unwrapped): server/text.py WHOLE_LINE. */
const WHOLE_LINE = "\x04";
/** A table row's columns up to its last: words apart by two spaces or more (server/text.py). */
const LAST_COLUMN = /^ *\S+(?: {2,}\S+)* {2,}(?=\S)/;

/** How far a line's continuations start in when it wraps, as the server's wrap_lines puts
 * them: under a table row's last column, else at the line's own indent, else (see hang) two
 * columns in; never none where there is room, so that what a player wrote cannot be wrapped
 * into a line that looks like one of the server's own. */
function naturalIndent(plain) {
  const column = LAST_COLUMN.exec(plain);
  return column ? column[0].length : plain.length - plain.replace(/^ +/, "").length;
}

/** Hang ``block``'s continuations under its natural indent (data-hang), or two columns in
 * where that is none or more than half of the ``cols`` that fit across now. */
function hang(block, cols) {
  let indent = Number(block.dataset.hang);
  const half = Math.floor((cols || 80) / 2);
  if (!indent || indent > half) indent = 2 <= half ? 2 : 0;
  // The block is padded in, and its first line drawn back out.
  block.style.paddingLeft = `${indent}ch`;
  block.style.textIndent = `-${indent}ch`;
}

/** The server's text as one entry, a line to each block, rendered through ansi_up (escaped;
 * its colours go on from line to line). The page wraps each line to the scrollback's width at
 * every moment, under its hanging indent (the server sends the lines unwrapped: ?wrap=page). */
function showServerText(text) {
  const entry = el("div", { class: "entry" });
  const cols = columns();
  const widths = [];
  for (const raw of String(text).split("\n")) {
    const whole = raw.startsWith(WHOLE_LINE);
    const line = whole ? raw.slice(WHOLE_LINE.length) : raw;
    const plain = line.replace(ANSI_CODES, "");
    const template = document.createElement("template");
    template.innerHTML = ansi.ansi_to_html(line);
    const block = el("div", { class: "line", "data-hang": String(whole ? 2 : naturalIndent(plain)) }, template.content);
    hang(block, cols);
    if (whole) widths.push(plain.length);
    entry.append(block);
  }
  const renderer = roomRenderer();
  if (renderer && renderer.decorateText) renderer.decorateText(entry);
  markLaidOut(entry, widths);
  addEntry(entry);
}

/** Text the server laid out in columns of its own (a board 80 wide) rather than for the page
 * to wrap: two lines kept whole (``widths``) or more wider than the scrollback when it came.
 * Wrapped line by line, such text is a jumble; it is shown whole (see fitWhole). */
function markLaidOut(entry, widths) {
  widths.sort((a, b) => b - a);
  const cols = columns();
  if (!cols || widths.length < 2 || widths[1] <= cols) return;
  entry.dataset.columns = String(widths[0]);
  fitWhole(entry);
}

/** A laid-out entry in a font just small enough for its widest line to fit across the
 * scrollback, unless that is below WHOLE_SMALLEST of the usual size: then it wraps. */
function fitWhole(entry) {
  const cols = columns();
  const scale = cols ? Math.floor((cols / Number(entry.dataset.columns)) * 100) / 100 : 0;
  const whole = scale >= WHOLE_SMALLEST;
  entry.classList.toggle("whole", whole);
  entry.style.fontSize = whole && scale < 1 ? `${scale}em` : "";
}

/** A line of the page's own: what the player sent, or the connection's news. */
function showNote(text, kind) {
  addEntry(el("div", { class: `entry ${kind}`, text }));
}

// ---------------------------------------------------------------------------------------------
// The connection: one WebSocket, resumed with the session token after a drop.

const state = {
  socket: null,
  open: false,
  retries: 0,
  retryTimer: null,
  cols: 0,
  name: null, // Char.Name's name once logged in
  room: null, // Room.Info
  secret: false, // the server asked for a secret ({"echo": false})
  views: new Map(), // GMCP package -> its latest data
  table: null, // Room.Table in a game room
  timerEnds: null, // when the turn timer Room.Table gave runs out (Date.now()'s clock)
  timerTotal: null, // the seconds that timer had when it came (the ring's whole)
  lobby: null, // Lobby.List: the games, the rooms and who is online
  tab: "table", // the game room's tab open: "table", "rules" or "results"
  rules: null, // Room.Rules: the rules of the room's game
  results: null, // Room.Results: a room's last games (it says which room)
  resultsWanted: true, // whether a game has ended since those were sent
  pendingLogin: null, // a login line waiting for the socket it opened (never kept beyond that)
  status: { text: "Connecting…", params: {} }, // the status line's text, in English
};

function setStatus(kind, text, params = {}) {
  state.status = { text, params };
  statusLine.dataset.state = kind;
  statusLine.textContent = t(text, params);
  reconnectButton.hidden = kind !== "reconnecting";
}

function send(message) {
  if (!state.open) return false;
  state.socket.send(JSON.stringify(message));
  return true;
}

function connect() {
  clearTimeout(state.retryTimer);
  state.retryTimer = null;
  const url = new URL("/ws", window.location.href);
  url.protocol = window.location.protocol === "https:" ? "wss:" : "ws:";
  // The width goes with the request, so that even the welcome fits the scrollback.
  const cols = columns();
  if (cols) url.searchParams.set("cols", String(cols));
  // This page reads several messages sent together as one JSON array (see the socket's
  // "message" listener); a page of an older release, which does not say so, gets them one by one.
  url.searchParams.set("batch", "1");
  // This page wraps the text itself, to its width at each moment (see showServerText).
  url.searchParams.set("wrap", "page");
  // The language chosen in the menu; else the server takes the browser's (Accept-Language).
  const chosen = localStorage.getItem(LANGUAGE_KEY);
  if (chosen) url.searchParams.set("lang", chosen);
  if (state.retries) setStatus("reconnecting", "Reconnecting…");
  else setStatus("connecting", "Connecting…");
  const socket = new WebSocket(url);
  state.socket = socket;
  socket.addEventListener("open", () => {
    if (state.socket !== socket) return;
    state.open = true;
    state.retries = 0;
    setStatus("connected", "Connected");
    const token = sessionStorage.getItem(TOKEN_KEY);
    if (token) send({ resume: token });
    else if (state.name) loggedOut(); // nothing to resume with: a new socket is not logged in
    sendCols(true);
    if (state.pendingLogin) {
      // The login that opened this socket (see the login form).
      send({ line: state.pendingLogin });
      state.pendingLogin = null;
    }
  });
  socket.addEventListener("message", (event) => {
    if (state.socket !== socket) return;
    let message;
    try {
      message = JSON.parse(event.data);
    } catch {
      return;
    }
    for (const one of Array.isArray(message) ? message : [message]) {
      if (one && typeof one === "object" && !Array.isArray(one)) receive(one);
    }
  });
  socket.addEventListener("close", () => {
    if (state.socket !== socket) return;
    const wasOpen = state.open;
    state.open = false;
    state.socket = null;
    state.pendingLogin = null; // a password is never kept waiting for a later socket
    if (wasOpen && !state.name && !sessionStorage.getItem(TOKEN_KEY)) {
      // Closed before anyone logged in (the server gives a connection a few minutes to
      // log in): the page connects again when the player logs in, not in a loop meanwhile.
      setStatus("disconnected", "Not connected: logging in connects again");
      return;
    }
    if (wasOpen) showNote(t("The connection dropped; reconnecting…"), "note");
    scheduleReconnect();
  });
}

function scheduleReconnect() {
  // 1, 2, 4, 8, 16, then every 30 seconds, each with up to a quarter more at random.
  const delay = Math.min(30, 2 ** state.retries) * 1000 * (1 + Math.random() / 4);
  state.retries += 1;
  setStatus("reconnecting", "Reconnecting in {n} s…", { n: Math.round(delay / 1000) });
  state.retryTimer = setTimeout(connect, delay);
}

reconnectButton.addEventListener("click", () => {
  if (!state.socket) connect();
});

function receive(message) {
  if (typeof message.text === "string") showServerText(message.text);
  if (typeof message.gmcp === "string") receiveGmcp(message.gmcp, message.data);
  if ("token" in message) {
    if (typeof message.token === "string" && message.token) sessionStorage.setItem(TOKEN_KEY, message.token);
    else if (message.token === null) {
      sessionStorage.removeItem(TOKEN_KEY);
      loggedOut();
    }
  }
  if (message.echo === false) setSecret(true);
  else if (message.echo === true) setSecret(false);
  // The language the server writes in now (@language, or the player's own once logged in):
  // the page's labels follow. (Only a choice made in the menu is remembered for the next
  // visit: this one may be a guess, or another player's.)
  if (typeof message.language === "string" && message.language !== languageWanted) useLanguage(message.language);
}

// ---------------------------------------------------------------------------------------------
// Columns: how many characters of the scrollback's font fit across it.

const measure = $("measure");
measure.textContent = "0".repeat(100);

function columns() {
  const charWidth = measure.getBoundingClientRect().width / 100;
  if (!charWidth) return 0;
  const style = getComputedStyle(scrollback);
  const inner = scrollback.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  return Math.max(COLS_MIN, Math.min(COLS_MAX, Math.floor(inner / charWidth)));
}

function sendCols(always) {
  const cols = columns();
  if (!cols || (!always && cols === state.cols)) return;
  if (send({ cols })) state.cols = cols;
}

document.fonts.ready.then(() => sendCols(false));

/** The scrollback's lines hung and its boards fitted anew, to the characters that fit now. */
function rewrap() {
  const cols = columns();
  for (const block of scrollback.querySelectorAll(".line[data-hang]")) hang(block, cols);
  for (const entry of scrollback.querySelectorAll(".entry[data-columns]")) fitWhole(entry);
}

let resizeTimer = null;
new ResizeObserver(() => {
  if (following) showNewest();
  clearTimeout(resizeTimer);
  resizeTimer = setTimeout(() => {
    sendCols(false);
    rewrap();
    if (following) showNewest();
  }, 150);
}).observe(scrollback);

// ---------------------------------------------------------------------------------------------
// The command line: history (up/down) in memory only, never a secret.

const history = [];
let historyIndex = 0; // history.length = the line being written
let draft = "";

/** Lines that carry a password: never kept in history, never echoed (a room's password
 * comes after "=" in join, watch and newroom). */
const SECRET_COMMAND = /^\s*((connect|create|@password)\b|(join|watch|newroom)\b[^=]*=)/i;

function setSecret(secret) {
  state.secret = secret;
  commandInput.type = secret ? "password" : "text";
  commandInput.value = "";
  commandInput.classList.toggle("secret", secret);
  if (secret) commandInput.focus();
}

export function sendCommand(line, { fromCommandLine = false } = {}) {
  const secret = state.secret || line.split("\n").some((part) => SECRET_COMMAND.test(part));
  if (!send({ line })) {
    showNote(t("Not connected: nothing was sent. Reconnecting…"), "note");
    return false;
  }
  if (!secret) {
    showNote(`> ${line}`, "echo");
    if (line.trim() && history[history.length - 1] !== line) {
      history.push(line);
      if (history.length > HISTORY_LIMIT) history.shift();
    }
  }
  historyIndex = history.length;
  draft = "";
  if (state.secret) setSecret(false); // one secret line answers the prompt; the server re-asks if needed
  if (!fromCommandLine) showNewest();
  return true;
}

export function putInCommandLine(text) {
  commandInput.value = text;
  commandInput.focus();
  commandInput.setSelectionRange(text.length, text.length);
}

commandForm.addEventListener("submit", (event) => {
  event.preventDefault();
  const line = commandInput.value;
  if (sendCommand(line, { fromCommandLine: true })) {
    commandInput.value = "";
    showNewest();
  }
});

commandInput.addEventListener("keydown", (event) => {
  if (state.secret || (event.key !== "ArrowUp" && event.key !== "ArrowDown")) return;
  if (event.key === "ArrowUp" && historyIndex > 0) {
    if (historyIndex === history.length) draft = commandInput.value;
    historyIndex -= 1;
  } else if (event.key === "ArrowDown" && historyIndex < history.length) {
    historyIndex += 1;
  } else return;
  event.preventDefault();
  putInCommandLine(historyIndex === history.length ? draft : history[historyIndex]);
});

// A pasted block of several lines is sent as it is, like a telnet client sends it: the server
// takes it a line at a time (a text field would run its lines together).
commandInput.addEventListener("paste", (event) => {
  const pasted = event.clipboardData ? event.clipboardData.getData("text") : "";
  if (state.secret || !/[\r\n]/.test(pasted.trim())) return;
  event.preventDefault();
  const start = commandInput.selectionStart ?? commandInput.value.length;
  const end = commandInput.selectionEnd ?? commandInput.value.length;
  const block = (commandInput.value.slice(0, start) + pasted + commandInput.value.slice(end)).replace(/\r\n?/g, "\n");
  if (sendCommand(block.replace(/\n+$/, ""), { fromCommandLine: true })) commandInput.value = "";
});

// ---------------------------------------------------------------------------------------------
// The login form: the commands as lines; the password goes only into the socket.

languageMenu.addEventListener("change", () => {
  const code = languageMenu.value;
  localStorage.setItem(LANGUAGE_KEY, code);
  useLanguage(code);
  // The server writes in it from now on (and keeps it for the player who logs in); not while
  // it waits for a password, which the line would be taken for (the next connection says it).
  if (!state.secret) send({ line: `@language ${code}` });
});

loginForm.addEventListener("submit", (event) => {
  event.preventDefault();
  const verb = event.submitter && event.submitter.value === "create" ? "create" : "connect";
  const nameField = $("login-name");
  const passwordField = $("login-password");
  const name = nameField.value.trim().replaceAll('"', "");
  const password = passwordField.value;
  if (!name || !password) return;
  const line = `${verb} "${name}" ${password}`;
  if (!send({ line })) {
    if (state.socket) {
      showNote(t("Not connected yet: try again in a moment."), "note");
      return;
    }
    // Not connected and not trying to (see the socket's close): connect, then log in.
    state.pendingLogin = line;
    connect();
  }
  passwordField.value = "";
  showNote(`> ${verb} "${name}" ********`, "echo");
});

function loggedIn(name) {
  state.name = name;
  loginForm.hidden = true;
  panels.hidden = false;
  $("login-password").value = "";
  document.body.classList.add("logged-in");
  if (loginForm.contains(document.activeElement) || document.activeElement === document.body) commandInput.focus();
}

function loggedOut() {
  state.name = null;
  state.room = null;
  state.table = null;
  state.timerEnds = null;
  state.timerTotal = null;
  state.lobby = null;
  state.rules = null;
  state.resultsWanted = true; // (the results held stay: they are a room's, not the player's)
  state.tab = "table";
  told.yourTurn = told.over = false;
  state.views.clear();
  for (const renderer of GAME_RENDERERS.values()) if (renderer.forget) renderer.forget();
  loginForm.hidden = false;
  panels.hidden = true;
  panels.replaceChildren();
  document.body.classList.remove("logged-in");
  showRoom();
}

// ---------------------------------------------------------------------------------------------
// GMCP: Char.Name and Room.Info here; each game's packages go to its renderer.

/** The panels of each game kind, by GMCP package prefix, the game's name capitalised ("Chess"
 * for Chess.Table). Each game's panel is a module of its own (commands/<kind>/panel.js, served
 * as /static/games/<kind>.js) that registers one renderer:
 *   render(views, ui): the game's packages (package -> data) and ui.name (the player's name)
 *     give the panel nodes to show, or [] when there is nothing (outside a room of that game);
 *   decorateText(root) (optional): the server's text in a room of that game, before it is shown
 *     (text nodes only: nothing is parsed as HTML again);
 *   forget() (optional): the player logged out; drop what the panel remembers of them. */
const GAME_RENDERERS = new Map();

export function registerGame(prefix, renderer) {
  GAME_RENDERERS.set(prefix, renderer);
  // Packages that came before the panel's module ran are drawn now.
  if ([...state.views.keys()].some((name) => name.startsWith(`${prefix}.`))) renderGame(prefix);
}

/** The renderer of the game whose room the player is in, if any. */
function roomRenderer() {
  const room = state.room;
  if (!room || room.kind !== "game") return null;
  for (const [prefix, renderer] of GAME_RENDERERS) if (prefix.toLowerCase() === room.game) return renderer;
  return null;
}

function receiveGmcp(name, data) {
  if (name === "Char.Name") {
    if (data && typeof data.name === "string") loggedIn(data.name);
    return;
  }
  if (name === "Room.Info") {
    const before = state.room ? state.room.name : null;
    state.room = data && typeof data === "object" ? data : null;
    if (!state.room || state.room.name !== before) state.tab = "table";
    showRoom();
    renderLobby();
    return;
  }
  if (name === "Room.Rules") {
    // ({} in the lobby.) The Results the page holds stay: they say which room they are of,
    // and the server sends again only results that differ from them.
    state.rules = data && typeof data === "object" && typeof data.text === "string" ? data : null;
    if (state.tab === "rules") renderRules();
    return;
  }
  if (name === "Room.Results") {
    state.results = data && typeof data === "object" && Array.isArray(data.games) ? data : null;
    state.resultsWanted = false;
    if (state.tab === "results") renderResults();
    return;
  }
  if (name === "Lobby.List") {
    state.lobby = data && typeof data === "object" && Array.isArray(data.rooms) ? data : null;
    renderLobby();
    return;
  }
  if (name === "Room.Table") {
    const phaseBefore = state.table ? state.table.phase : null;
    state.table = data && typeof data === "object" && !isEmpty(data) ? data : null;
    const seconds = state.table && Number.isFinite(state.table.timer) ? state.table.timer : null;
    state.timerEnds = seconds === null ? null : Date.now() + seconds * 1000;
    state.timerTotal = seconds;
    // A game that ends adds a result: the Results tab asks again.
    if (state.table && state.table.phase === "over" && phaseBefore !== "over") state.resultsWanted = true;
    announceTable(state.table);
    for (const prefix of GAME_RENDERERS.keys()) if ([...state.views.keys()].some((view) => view.startsWith(`${prefix}.`))) renderGame(prefix);
    return;
  }
  const prefix = name.split(".", 1)[0];
  if (!/^[A-Z][A-Za-z]*$/.test(prefix)) return;
  state.views.set(name, data);
  if (GAME_RENDERERS.has(prefix)) renderGame(prefix);
}

function showRoom() {
  const room = state.room;
  if (!room) {
    roomName.textContent = "";
    leaveButton.hidden = true;
    return;
  }
  roomName.textContent = room.kind === "game" ? `${room.name} (${room.game})` : room.name;
  leaveButton.hidden = room.kind !== "game";
  const inRoom = room.kind === "game";
  const views = roomViews();
  views.tabs.hidden = !inRoom;
  showTab(inRoom ? state.tab : "table");
}

// ---------------------------------------------------------------------------------------------
// A game room's tabs: its table (the game's panels), its rules (Room.Rules, what "help <game>"
// says) and its results (Room.Results, what "results" says; the tab sends that command).

const TABS = [
  ["table", () => t("Table")],
  ["rules", () => t("Rules")],
  ["results", () => t("Results")],
];

/** The room's tab list and its three views, made once inside the panels. */
function roomViews() {
  let tabs = $("room-tabs");
  if (!tabs) {
    tabs = el(
      "div",
      { id: "room-tabs", class: "tabs", role: "tablist", "aria-label": t("This room"), hidden: true },
      TABS.map(([name, label]) =>
        el("button", { type: "button", role: "tab", id: `tab-${name}`, "aria-controls": `view-${name}`, onclick: () => chooseTab(name) }, label()),
      ),
    );
    tabs.addEventListener("keydown", (event) => {
      const index = TABS.findIndex(([name]) => name === state.tab);
      const step = { ArrowRight: 1, ArrowLeft: -1 }[event.key];
      if (step === undefined) return;
      event.preventDefault();
      const [next] = TABS[(index + step + TABS.length) % TABS.length];
      chooseTab(next);
      $(`tab-${next}`).focus();
    });
    panels.append(
      tabs,
      el("div", { id: "view-table", role: "tabpanel", "aria-labelledby": "tab-table", class: "game-panels" }),
      el("div", { id: "view-rules", role: "tabpanel", "aria-labelledby": "tab-rules", hidden: true }),
      el("div", { id: "view-results", role: "tabpanel", "aria-labelledby": "tab-results", hidden: true }),
    );
  }
  return { tabs, table: $("view-table"), rules: $("view-rules"), results: $("view-results") };
}

/** Open tab ``name`` (a click or the arrow keys); the Results tab asks for the room's
 * results unless it holds them since its last game ended. */
function chooseTab(name) {
  if (name === "results" && (state.resultsWanted || !resultsOfThisRoom())) sendCommand("results");
  showTab(name);
}

/** The results held, if they are of the room the player is in. */
function resultsOfThisRoom() {
  const results = state.results;
  return results && state.room && results.room === state.room.name ? results : null;
}

function showTab(name) {
  state.tab = name;
  const views = roomViews();
  for (const [tab] of TABS) {
    const button = $(`tab-${tab}`);
    button.setAttribute("aria-selected", String(tab === name));
    button.tabIndex = tab === name ? 0 : -1;
    views[tab].hidden = tab !== name;
  }
  if (name === "rules") renderRules();
  if (name === "results") renderResults();
}

/** The rules as "help" writes them: paragraphs apart, indented lines (examples, lists of
 * cards) kept whole, each as a line of its own. */
function rulesText(text) {
  const nodes = [];
  for (const paragraph of String(text).split(/\n\s*\n/)) {
    let prose = [];
    const flush = () => {
      if (prose.length) nodes.push(el("p", { text: prose.join(" ") }));
      prose = [];
    };
    for (const line of paragraph.split("\n")) {
      if (!line.trim()) continue;
      if (/^\s/.test(line)) {
        flush();
        nodes.push(el("pre", { class: "mono rule-line", text: line.replace(/^\s+/, "") }));
      } else prose.push(line.trim());
    }
    flush();
  }
  return nodes;
}

function renderRules() {
  const rules = state.rules;
  const view = roomViews().rules;
  if (!rules) {
    view.replaceChildren(panel("rules-panel", t("Rules"), el("p", { class: "hint", text: t("The rules come with the room.") })));
    return;
  }
  view.replaceChildren(
    panel(
      "rules-panel",
      rules.title || t("Rules"),
      rulesText(rules.text || ""),
      (rules.topics || []).map((topic) =>
        el("details", { class: "rule-topic" }, el("summary", { text: topic.name }), rulesText(topic.text || "")),
      ),
    ),
  );
}

function renderResults() {
  const results = resultsOfThisRoom();
  const view = roomViews().results;
  let body;
  if (!results) body = el("p", { class: "hint", text: t("Asking for the results…") });
  else if (!(results.games || []).length) body = el("p", { class: "hint", text: t("No game has ended in this room yet.") });
  else
    body = el(
      "ol",
      { class: "results", "aria-label": t("The last games, the latest first") },
      results.games.map((game) =>
        el(
          "li",
          {},
          el("span", { class: "result-when", text: game.finished }),
          " ",
          el("strong", { text: game.winners.length ? `${game.outcome}: ${game.winners.join(", ")}` : game.outcome }),
          el("br"),
          game.result,
        ),
      ),
    );
  view.replaceChildren(panel("results-panel", t("Results"), body));
}

leaveButton.addEventListener("click", () => sendCommand("leave"));

export function renderGame(prefix) {
  const renderer = GAME_RENDERERS.get(prefix);
  const views = {};
  for (const [name, data] of state.views) if (name.startsWith(`${prefix}.`)) views[name] = data;
  const id = `game-${prefix.toLowerCase()}`;
  let container = $(id);
  if (!container) {
    container = el("div", { id, class: "game-panels" });
    roomViews().table.append(container);
  }
  // Re-drawing replaces the buttons: keep the focus on the one with the same id.
  const focused = container.contains(document.activeElement) ? document.activeElement.id : null;
  const nodes = renderer.render(views, { name: state.name });
  container.replaceChildren(...nodes);
  container.hidden = nodes.length === 0;
  if (focused) {
    const again = $(focused);
    if (again && !again.disabled) again.focus({ preventScroll: true });
    // Not scrolled to: a phone would jump to the command line at the top, away from the panel.
    else if (container.contains(document.activeElement) === false && nodes.length) commandInput.focus({ preventScroll: true });
  }
}

// ---------------------------------------------------------------------------------------------
// The lobby (Lobby.List, commands/lobby.py): play now, a new table, the tables by game with
// Join and Watch, and who is online. Every button sends a command one could type.

/** A room's phase, as the lobby names it. */
const PHASE_WORDS = { waiting: () => t("waiting for players"), playing: () => t("playing"), over: () => t("game over") };

/** A game's name as players call it: its registered name, capitalised. */
const gameName = (game) => game.charAt(0).toUpperCase() + game.slice(1);

function renderLobby() {
  let container = $("lobby");
  const board = state.lobby;
  const inLobby = state.room && state.room.kind === "lobby";
  if (!board || !inLobby) {
    if (container) container.remove();
    return;
  }
  const games = board.games || [];
  if (!container) {
    // Made once: the board's updates redraw the sections' contents, never the form being typed in.
    container = el(
      "div",
      { id: "lobby", class: "game-panels" },
      panel("lobby-play", t("Play now")),
      panel("lobby-tables", t("Tables")),
      newTableForm(),
      panel("lobby-online", t("Online")),
    );
    panels.prepend(container);
  }
  const focused = container.contains(document.activeElement) ? document.activeElement.id : null;
  const quick = games.filter((game) => game.quick);
  fillSection(
    "lobby-play",
    el("p", { class: "hint", text: t("A game against computer players, started at once. Others may join or watch.") }),
    el(
      "div",
      { class: "buttons" },
      quick.map((game) => commandButton(`play-${game.name}`, t("Play {game} now", { game: gameName(game.name) }), `play ${game.name}`, { class: "primary" })),
    ),
  );
  fillSection("lobby-tables", lobbyTables(board));
  fillSection("lobby-online", el("ul", { class: "online", "aria-label": t("Players online") }, (board.online || []).map((name) => el("li", { text: name }))));
  const menu = $("new-table-game");
  const chosen = menu.value;
  menu.replaceChildren(...games.map((game) => el("option", { value: game.name, text: game.title })));
  if (games.some((game) => game.name === chosen)) menu.value = chosen;
  showSettings(false);
  if (focused && $(focused) && document.activeElement !== $(focused)) $(focused).focus();
}

/** A lobby section's contents after its heading, replaced by ``children``. */
function fillSection(id, ...children) {
  const section = $(id);
  section.replaceChildren(section.firstElementChild, ...children.flat());
}

/** The rooms, a list for each game that has any, each with Join and Watch. */
function lobbyTables(board) {
  const rooms = board.rooms || [];
  const byGame = new Map((board.games || []).map((game) => [game.name, []]));
  for (const room of rooms) (byGame.get(room.game) || byGame.set(room.game, []).get(room.game)).push(room);
  const lists = [];
  let index = 0;
  for (const [game, gameRooms] of byGame) {
    if (!gameRooms.length) continue;
    const heading = `lobby-${game}-title`;
    lists.push(
      el("h3", { id: heading, text: gameName(game) }),
      el(
        "ul",
        { class: "tables", "aria-labelledby": heading },
        gameRooms.map((room) => {
          index += 1;
          const phase = PHASE_WORDS[room.phase] ? PHASE_WORDS[room.phase]() : room.phase;
          const seated = room.seated.length ? room.seated.join(", ") : t("nobody yet");
          const facts = [phase, t("seated: {names}", { names: seated })];
          if (room.watching) facts.push(t("watching: {n}", { n: room.watching }));
          if (room.password) facts.push(t("password"));
          // A password is typed in the command line, where it is never echoed nor kept.
          const join = room.password
            ? el("button", { type: "button", id: `join-${index}`, onclick: () => putInCommandLine(`join ${room.name}=`) }, t("Join"))
            : commandButton(`join-${index}`, t("Join"), `join ${room.name}`);
          const watch = room.password
            ? el("button", { type: "button", id: `watch-${index}`, onclick: () => putInCommandLine(`watch ${room.name}=`) }, t("Watch"))
            : commandButton(`watch-${index}`, t("Watch"), `watch ${room.name}`);
          join.setAttribute("aria-label", t("Join {room}", { room: room.name }));
          watch.setAttribute("aria-label", t("Watch {room}", { room: room.name }));
          return el(
            "li",
            { class: "table-row" },
            el("span", { class: "table-name", text: room.name }),
            el("span", { class: "table-facts", text: facts.join(" · ") }),
            el("span", { class: "buttons" }, join, watch),
          );
        }),
      ),
    );
  }
  return lists.length ? lists : [el("p", { class: "hint", text: t("No tables yet: play now, or make one below.") })];
}

/** "New table": a game, a name and (if wanted) a password, sent as newroom. */
function newTableForm() {
  const form = el(
    "form",
    { id: "new-table", class: "panel new-table", "aria-labelledby": "new-table-title" },
    el("h2", { id: "new-table-title", text: t("New table") }),
    el("label", { for: "new-table-game", text: t("Game") }),
    el("select", { id: "new-table-game" }),
    el("label", { for: "new-table-name", text: t("Table name") }),
    el("input", { id: "new-table-name", type: "text", required: true, minlength: "2", maxlength: "30", autocomplete: "off", spellcheck: "false" }),
    el("label", { for: "new-table-password", text: t("Password (only for a private table)") }),
    el("input", { id: "new-table-password", type: "password", autocomplete: "new-password" }),
    el("details", { id: "new-table-settings", class: "table-settings" }, el("summary", { text: t("Settings") })),
    el("div", { class: "buttons" }, el("button", { type: "submit", id: "new-table-make" }, t("Make the table"))),
  );
  form.addEventListener("change", (event) => {
    if (event.target.id === "new-table-game") showSettings(true);
  });
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const name = $("new-table-name").value.trim();
    const password = $("new-table-password").value;
    if (!name) return;
    // The room, then each setting changed from its default, as the host would type them.
    const lines = [`newroom/${$("new-table-game").value} ${name}${password ? `=${password}` : ""}`];
    for (const field of $("new-table-settings").querySelectorAll("[data-setting]")) {
      const value = field.value.trim();
      if (value && value !== field.dataset.default) lines.push(`set ${field.dataset.setting}=${value}`);
    }
    if (sendCommand(lines.join("\n"))) {
      $("new-table-name").value = "";
      $("new-table-password").value = "";
      showSettings(true);
    }
  });
  return form;
}

/** The chosen game's settings in the New table form, each at its default (``afresh``), or
 * as they are when the game's settings are the same as those shown. */
function showSettings(afresh) {
  const chosen = $("new-table-game").value;
  const game = ((state.lobby && state.lobby.games) || []).find((each) => each.name === chosen);
  const settings = (game && game.settings) || [];
  const box = $("new-table-settings");
  const shown = settings.map((setting) => setting.name).join(" ");
  if (!afresh && box.dataset.shown === `${chosen}: ${shown}`) return;
  box.dataset.shown = `${chosen}: ${shown}`;
  box.hidden = !settings.length;
  box.replaceChildren(
    box.firstElementChild,
    ...settings.map((setting) => {
      const id = `setting-${setting.name}`;
      const field = setting.choices.length
        ? el("select", { id }, setting.choices.map((choice) => el("option", { value: choice, text: choice })))
        : el("input", {
            id,
            type: "number",
            min: String(setting.zero_allowed ? 0 : setting.low),
            max: String(setting.high),
            step: setting.whole ? "1" : "any",
          });
      field.value = setting.default;
      field.dataset.setting = setting.name;
      field.dataset.default = setting.default;
      return el("div", { class: "setting" }, el("label", { for: id, text: `${setting.name}: ${setting.about}` }), field);
    }),
  );
}

// ---------------------------------------------------------------------------------------------
// The table every game has (Room.Table, commands/games.py table_summary): the seats, whose turn
// with its countdown, and the winner line. A game's panel draws it with tablePanel and fills in
// what is its own: each seat's marks and holdings, and what goes above and below the seats.

/** The name of the room the player is in (Room.Info), or null. */
export function currentRoomName() {
  return state.room ? state.room.name : null;
}

/** Room.Table as last sent, or null outside a game room. */
export function tableSummary() {
  return state.table || null;
}

/** Whose turn it is, by the word a game calls one: "turn", or "move". */
const TURN_LINES = {
  turn: { yours: () => t("Your turn."), theirs: (name) => t("{name}'s turn.", { name }) },
  move: { yours: () => t("Your move."), theirs: (name) => t("{name}'s move.", { name }) },
};

/** "Your turn" or "<name>'s turn" (or move: ``word``), with the turn timer counting down. */
function turnLine(table, word) {
  const waiting = (table.seats || []).filter((seat) => (table.waiting || []).includes(seat.id));
  if (table.phase !== "playing" || !waiting.length) return null;
  let whose;
  if (waiting.length === 1) {
    const lines = TURN_LINES[word] || TURN_LINES.turn;
    whose = waiting[0].id === table.you ? lines.yours() : lines.theirs(waiting[0].name);
  } else {
    whose = t("Waiting for {names}.", { names: waiting.map((seat) => (seat.id === table.you ? t("you") : seat.name)).join(", ") });
  }
  const countdown = state.timerEnds === null ? null : countdownRing(state.timerEnds, state.timerTotal);
  return el("p", { class: "turn-line" }, countdown, whose, countdown ? " " : null, countdown ? countdown.label : null);
}

const SVG = "http://www.w3.org/2000/svg";
/** The ring's circumference (its radius is 15 in a 36-wide box). */
const RING = 2 * Math.PI * 15;

/** A ring that empties as the turn's ``total`` seconds run out at ``ends``, with the seconds
 * left beside it as text (``.label``: the words a screen reader reads; the ring is hidden
 * from it). */
function countdownRing(ends, total) {
  const ring = document.createElementNS(SVG, "svg");
  ring.setAttribute("class", "ring");
  ring.setAttribute("viewBox", "0 0 36 36");
  ring.setAttribute("aria-hidden", "true");
  for (const part of ["ring-track", "ring-left"]) {
    const circle = document.createElementNS(SVG, "circle");
    for (const [key, value] of [["cx", 18], ["cy", 18], ["r", 15], ["class", part]]) circle.setAttribute(key, String(value));
    ring.append(circle);
  }
  ring.lastChild.setAttribute("stroke-dasharray", String(RING));
  ring.label = el("span", { class: "countdown", "data-ends": String(ends), "data-total": String(total || 0) });
  ring.label.ring = ring;
  tick(ring.label);
  return ring;
}

/** The seats in ``order`` (ids; any others after), each with the shared marks (you, host,
 * computer player, away, out, whose turn) and what ``extra(seat)`` adds:
 * {lead: node before the name, marks: [words], content: [nodes after them]}. ``others``: rows
 * the game lists with them that are nobody's seat ({id, name}: a neutral player's holdings). */
function seatList(
  table,
  { order = [], extra = () => ({}), label = "Players in turn order", className = "", itemClass = "", others = [] } = {},
) {
  const byId = new Map([...(table.seats || []), ...others].map((seat) => [seat.id, seat]));
  const ordered = order.filter((id) => byId.has(id)).map((id) => byId.get(id));
  for (const seat of byId.values()) if (!ordered.includes(seat)) ordered.push(seat);
  const waiting = table.phase === "playing" ? table.waiting || [] : [];
  return el(
    "ol",
    { class: `seats ${className}`.trim(), "aria-label": t(label) },
    ordered.map((seat) => {
      const own = extra(seat) || {};
      const marks = [];
      if (waiting.includes(seat.id)) marks.push(seat.id === table.you ? t("your turn") : t("their turn"));
      if (seat.id === table.you) marks.push(t("you"));
      if (seat.id === table.host) marks.push(t("host"));
      if (seat.bot) marks.push(t("computer, {level}", { level: seat.bot }));
      if (seat.away) marks.push(t("away"));
      if (seat.out) marks.push(t("out"));
      marks.push(...(own.marks || []));
      const current = waiting.includes(seat.id);
      return el(
        "li",
        { class: ["seat", itemClass, current ? "current" : "", seat.out ? "out" : ""].filter(Boolean).join(" ") },
        own.lead || null,
        el("span", { class: "seat-name", text: seat.name }),
        marks.length ? el("span", { class: "marks", text: ` (${marks.join(", ")})` }) : null,
        own.content || null,
      );
    }),
  );
}

/** A game's table panel on the shared scaffold: the turn line and countdown, the winner line
 * once a game is over, ``above`` (the game's own lines), the seat list (``seats``: seatList's
 * options) and ``below``. */
export function tablePanel(id, title, { turnWord = "turn", above = [], seats = {}, below = [] } = {}) {
  const table = tableSummary();
  if (!table) return panel(id, title, above, below);
  return panel(
    id,
    title,
    turnLine(table, turnWord),
    table.phase === "over" && table.result ? el("p", { class: "result banner", role: "status", text: table.result }) : null,
    above,
    seatList(table, seats),
    below,
  );
}

/** A countdown's text: the whole seconds left. */
function tick(countdown) {
  const left = Math.max(0, Math.ceil((Number(countdown.dataset.ends) - Date.now()) / 1000));
  countdown.textContent = t("{n} s left", { n: left });
  const total = Number(countdown.dataset.total);
  if (countdown.ring && total > 0) {
    countdown.ring.lastChild.setAttribute("stroke-dashoffset", String(RING * (1 - Math.min(1, left / total))));
    countdown.ring.classList.toggle("low", left <= Math.min(10, total / 4));
  }
}

setInterval(() => document.querySelectorAll(".countdown").forEach(tick), 1000);

export function panel(id, title, ...children) {
  return el("section", { id, class: "panel", "aria-labelledby": `${id}-title` }, el("h2", { id: `${id}-title`, text: title }), ...children);
}

export function isEmpty(data) {
  return !data || (typeof data === "object" && Object.keys(data).length === 0);
}

// ---------------------------------------------------------------------------------------------
// The Display menu: the text's size and a high-contrast theme, kept in this browser.

const DISPLAY_KEY = "dvorak-mush.display";
const textSize = $("text-size");
const highContrast = $("high-contrast");

function applyDisplay() {
  const root = document.documentElement;
  root.classList.toggle("text-large", textSize.value === "large");
  root.classList.toggle("text-larger", textSize.value === "larger");
  root.classList.toggle("contrast", highContrast.checked);
  // The text's size changes how many characters fit across: tell the server, wrap anew.
  sendCols(false);
  rewrap();
}

function loadDisplay() {
  let saved = {};
  try {
    saved = JSON.parse(localStorage.getItem(DISPLAY_KEY) || "{}") || {};
  } catch {
    saved = {};
  }
  if (["normal", "large", "larger"].includes(saved.size)) textSize.value = saved.size;
  // Until chosen here, as the system asks (a reader who set "more contrast" there gets it).
  highContrast.checked =
    typeof saved.contrast === "boolean" ? saved.contrast : window.matchMedia("(prefers-contrast: more)").matches;
  applyDisplay();
}

for (const control of [textSize, highContrast]) {
  control.addEventListener("change", () => {
    localStorage.setItem(DISPLAY_KEY, JSON.stringify({ size: textSize.value, contrast: highContrast.checked }));
    applyDisplay();
  });
}

// ---------------------------------------------------------------------------------------------
// Announcements for screen readers: turns, a game's end, and what a game's panel asks for
// (votes), through one polite live region rather than every line of the log.

const announcer = $("announcer");

/** Have screen readers say ``text`` (already in the reader's language), politely: the
 * region is emptied first, so that the same words said again are read again. */
export function announce(text) {
  if (!text) return;
  announcer.textContent = "";
  requestAnimationFrame(() => (announcer.textContent = text));
}

/** What Room.Table last said of the player's turn and of the game's end. */
const told = { yourTurn: false, over: false };

/** Tell a player listening when their turn comes and when the game ends. */
function announceTable(table) {
  const yourTurn = Boolean(table) && table.phase === "playing" && (table.waiting || []).includes(table.you);
  const over = Boolean(table) && table.phase === "over" && Boolean(table.result);
  if (yourTurn && !told.yourTurn) announce(t("Your turn."));
  if (over && !told.over) announce(table.result);
  told.yourTurn = yourTurn;
  told.over = over;
}

// ---------------------------------------------------------------------------------------------

loadDisplay();

// The language chosen in the menu before, else the page's (the server set it from the
// browser's Accept-Language).
useLanguage(localStorage.getItem(LANGUAGE_KEY) || document.documentElement.lang || "en");
connect();
