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
const COLS_MIN = 20;
const COLS_MAX = 250;
/** The smallest a text the server laid out in columns of its own is shrunk to, to fit across
 * the scrollback whole, as a share of the scrollback's font size; narrower than that (a phone),
 * it wraps as prose does. */
const WHOLE_SMALLEST = 0.7;
/** ANSI escape sequences, which take no room on the screen. */
const ANSI_CODES = /\x1b\[[0-9;]*[A-Za-z]/g;

const $ = (id) => document.getElementById(id);
const scrollback = $("scrollback");
const commandForm = $("command-form");
const commandInput = $("command");
const loginForm = $("login");
const panels = $("panels");
const statusLine = $("status");
const reconnectButton = $("reconnect");
const roomName = $("room-name");
const leaveButton = $("leave-room");

// ---------------------------------------------------------------------------------------------
// Small DOM helpers: every string goes in as text.

function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key === "onclick") node.addEventListener("click", value);
    else if (key in node && typeof value !== "string") node[key] = value;
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(typeof child === "string" ? document.createTextNode(child) : child);
  }
  return node;
}

/** A button that sends ``command`` (as if typed) when pressed. */
function commandButton(id, label, command, props = {}) {
  return el("button", { type: "button", id, ...props, onclick: () => sendCommand(command) }, label);
}

/** The classes a MUSH colour code (``hr``, ``c``, ``hwB``...) stands for: the same ansi-*
 * classes the scrollback uses. A code that is not one gives none. */
const COLOUR_LETTERS = "xrgybmcw";
const COLOUR_NAMES = ["black", "red", "green", "yellow", "blue", "magenta", "cyan", "white"];
function colourClasses(code) {
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

/** A card's words as the text pane shows them: its %r marks are line breaks. */
function cardText(card) {
  const lines = String(card.text || "")
    .split("%r")
    .map((line) => line.trim());
  return el("p", { class: "card-text", text: lines.join("\n") });
}

/** ``#12 Kevlar Vest`` as nodes, the name in its colour. */
function cardLabel(card) {
  return [
    el("span", { class: "card-number", text: `#${card.number}` }),
    " ",
    el("span", { class: `card-name ${colourClasses(card.colour)}`.trim(), text: card.name }),
  ];
}

const cardTitle = (card) => `#${card.number} ${card.name}`;

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

const CARD_REFERENCE = /#(\d{1,7})\b/g;

/** In a Dvorak room, card references (#12) in the text become buttons that put
 * "readcard 12" in the command line. Only text nodes are searched, and split by DOM
 * operations: nothing is parsed as HTML again. */
function linkCardReferences(root) {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const found = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    CARD_REFERENCE.lastIndex = 0;
    if (CARD_REFERENCE.test(node.data)) found.push(node);
  }
  for (const node of found) {
    const parts = [];
    let last = 0;
    CARD_REFERENCE.lastIndex = 0;
    for (let match = CARD_REFERENCE.exec(node.data); match; match = CARD_REFERENCE.exec(node.data)) {
      if (match.index > last) parts.push(document.createTextNode(node.data.slice(last, match.index)));
      const number = match[1];
      parts.push(
        el("button", {
          type: "button",
          class: "ref",
          tabindex: "-1", // the command line reaches the same (readcard); the log stays one tab stop
          title: `readcard ${number}`,
          "data-card": number,
          text: match[0],
        }),
      );
      last = match.index + match[0].length;
    }
    if (last < node.data.length) parts.push(document.createTextNode(node.data.slice(last)));
    node.replaceWith(...parts);
  }
}

scrollback.addEventListener("click", (event) => {
  const ref = event.target.closest("button.ref");
  if (!ref) return;
  putInCommandLine(`readcard ${ref.dataset.card}`);
});

function nearBottom() {
  return scrollback.scrollHeight - scrollback.scrollTop - scrollback.clientHeight < 40;
}

/** Whether the scrollback follows its newest line: until the reader scrolls up, and again
 * once they scroll back down. It keeps following when its size changes (a phone turned,
 * its on-screen keyboard opened): the lines wrap anew and the newest stays in sight. */
let following = true;
scrollback.addEventListener("scroll", () => {
  following = nearBottom();
});

function showNewest() {
  scrollback.scrollTop = scrollback.scrollHeight;
}

function addEntry(entry) {
  const follow = following || nearBottom();
  scrollback.append(entry);
  while (scrollback.childElementCount > SCROLLBACK_LIMIT) scrollback.firstElementChild.remove();
  if (follow) showNewest();
}

/** The server's text, rendered through ansi_up (escaped) into one entry. */
function showServerText(text) {
  const template = document.createElement("template");
  template.innerHTML = ansi.ansi_to_html(String(text));
  if (state.room && state.room.game === "dvorak") linkCardReferences(template.content);
  const entry = el("div", { class: "entry" }, template.content);
  markLaidOut(entry, String(text));
  addEntry(entry);
}

/** Text the server laid out in columns of its own (a Ys board is 80 wide) rather than
 * wrapping it to the scrollback: two lines or more wider than the scrollback when it came.
 * Wrapped line by line, such text is a jumble; it is shown whole (see fitWhole). */
function markLaidOut(entry, text) {
  const widths = text
    .replace(ANSI_CODES, "")
    .split("\n")
    .map((line) => line.length)
    .sort((a, b) => b - a);
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
  selectedCard: null, // the hand card whose actions are open
  playOnTarget: null, // the Thing chosen in its "on" list (kept when the panels are drawn again)
  pendingLogin: null, // a login line waiting for the socket it opened (never kept beyond that)
};

function setStatus(kind, text) {
  statusLine.dataset.state = kind;
  statusLine.textContent = text;
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
  setStatus(state.retries ? "reconnecting" : "connecting", state.retries ? "Reconnecting…" : "Connecting…");
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
    if (wasOpen) showNote("The connection dropped; reconnecting…", "note");
    scheduleReconnect();
  });
}

function scheduleReconnect() {
  // 1, 2, 4, 8, 16, then every 30 seconds, each with up to a quarter more at random.
  const delay = Math.min(30, 2 ** state.retries) * 1000 * (1 + Math.random() / 4);
  state.retries += 1;
  setStatus("reconnecting", `Reconnecting in ${Math.round(delay / 1000)} s…`);
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

let resizeTimer = null;
new ResizeObserver(() => {
  if (following) showNewest();
  clearTimeout(resizeTimer);
  resizeTimer = setTimeout(() => {
    sendCols(false);
    for (const entry of scrollback.querySelectorAll(".entry[data-columns]")) fitWhole(entry);
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

function sendCommand(line, { fromCommandLine = false } = {}) {
  const secret = state.secret || line.split("\n").some((part) => SECRET_COMMAND.test(part));
  if (!send({ line })) {
    showNote("Not connected: nothing was sent. Reconnecting…", "note");
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
  if (!fromCommandLine) scrollback.scrollTop = scrollback.scrollHeight;
  return true;
}

function putInCommandLine(text) {
  commandInput.value = text;
  commandInput.focus();
  commandInput.setSelectionRange(text.length, text.length);
}

commandForm.addEventListener("submit", (event) => {
  event.preventDefault();
  const line = commandInput.value;
  if (sendCommand(line, { fromCommandLine: true })) {
    commandInput.value = "";
    scrollback.scrollTop = scrollback.scrollHeight;
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
      showNote("Not connected yet: try again in a moment.", "note");
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
  state.views.clear();
  state.selectedCard = null;
  loginForm.hidden = false;
  panels.hidden = true;
  panels.replaceChildren();
  document.body.classList.remove("logged-in");
  showRoom();
}

// ---------------------------------------------------------------------------------------------
// GMCP: Char.Name and Room.Info here; each game's packages go to its renderer.

/** The panels of each game kind, by GMCP package prefix ("Dvorak" for Dvorak.Table, ...):
 * ``render(views, me)`` gets the game's packages (package -> data) and returns the panel
 * nodes to show, or [] when there is nothing (outside a room of that game). A new game kind
 * registers one renderer. */
const GAME_RENDERERS = new Map();

export function registerGame(prefix, renderer) {
  GAME_RENDERERS.set(prefix, renderer);
}

function receiveGmcp(name, data) {
  if (name === "Char.Name") {
    if (data && typeof data.name === "string") loggedIn(data.name);
    return;
  }
  if (name === "Room.Info") {
    state.room = data && typeof data === "object" ? data : null;
    showRoom();
    return;
  }
  const prefix = name.split(".", 1)[0];
  if (!GAME_RENDERERS.has(prefix)) return;
  state.views.set(name, data);
  renderGame(prefix);
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
}

leaveButton.addEventListener("click", () => sendCommand("leave"));

function renderGame(prefix) {
  const renderer = GAME_RENDERERS.get(prefix);
  const views = {};
  for (const [name, data] of state.views) if (name.startsWith(`${prefix}.`)) views[name] = data;
  const id = `game-${prefix.toLowerCase()}`;
  let container = $(id);
  if (!container) {
    container = el("div", { id, class: "game-panels" });
    panels.append(container);
  }
  // Re-drawing replaces the buttons: keep the focus on the one with the same id.
  const focused = container.contains(document.activeElement) ? document.activeElement.id : null;
  const nodes = renderer.render(views, { name: state.name, selected: state.selectedCard });
  container.replaceChildren(...nodes);
  container.hidden = nodes.length === 0;
  if (focused) {
    const again = $(focused);
    if (again && !again.disabled) again.focus();
    else if (container.contains(document.activeElement) === false && nodes.length) commandInput.focus();
  }
}

function panel(id, title, ...children) {
  return el("section", { id, class: "panel", "aria-labelledby": `${id}-title` }, el("h2", { id: `${id}-title`, text: title }), ...children);
}

function isEmpty(data) {
  return !data || (typeof data === "object" && Object.keys(data).length === 0);
}

// ---------------------------------------------------------------------------------------------
// Dvorak: Dvorak.Table, Dvorak.Hand, Dvorak.Votes.

function dvorakPile(pile) {
  const parts = [`draw pile ${pile.draw}, discard pile ${pile.discard}`];
  if (pile.discard_top) parts.push(el("span", {}, ", top: ", cardLabel(pile.discard_top)));
  return parts;
}

function dvorakTable(table, me) {
  const playing = table.phase === "playing";
  const turn = table.turn;
  const myTurn = Boolean(turn && turn.player === me);
  const summary = [`Phase: ${table.phase}.`];
  if (table.host) summary.push(` Host: ${table.host}.`);
  if (turn) {
    summary.push(
      ` Turn ${turn.number}: ${turn.player === me ? "yours" : turn.player} (drawn ${turn.drawn}, ` +
        `Things ${turn.things}, Actions ${turn.actions}).`,
    );
  }
  const seats = el(
    "ol",
    { class: "seats", "aria-label": "Seats in turn order" },
    (table.seats || []).map((seat) => {
      const marks = [];
      if (seat.current) marks.push(seat.name === me ? "your turn" : "their turn");
      if (seat.name === me) marks.push("you");
      if (seat.team) marks.push(`team ${seat.team}`);
      if (seat.away) marks.push("away");
      if (seat.out) marks.push("out");
      if (seat.deck !== null && seat.deck !== undefined) marks.push(`deck of ${seat.deck}`);
      const inPlay = seat.in_play || [];
      const faceDown = seat.face_down || [];
      return el(
        "li",
        { class: `seat${seat.current ? " current" : ""}${seat.out ? " out" : ""}` },
        el("span", { class: "seat-name", text: seat.name }),
        ` — ${seat.cards} card${seat.cards === 1 ? "" : "s"} in hand`,
        marks.length ? el("span", { class: "marks", text: ` (${marks.join(", ")})` }) : null,
        inPlay.length || faceDown.length
          ? el(
              "ul",
              { class: "in-play", "aria-label": `In play in front of ${seat.name}` },
              inPlay.map((card) =>
                el(
                  "li",
                  {},
                  cardLabel(card),
                  el("span", { class: "card-type", text: ` ${card.type}` }),
                  card.on !== null && card.on !== undefined ? ` on #${card.on}` : null,
                ),
              ),
              faceDown.map((label) => el("li", { class: "face-down", text: `face-down card ${label}` })),
            )
          : null,
      );
    }),
  );
  const piles = table.piles || {};
  const pileLines =
    "draw" in piles
      ? [el("p", { class: "piles" }, "Piles: ", dvorakPile(piles))]
      : Object.entries(piles).map(([owner, pile]) => el("p", { class: "piles" }, `${owner}'s piles: `, dvorakPile(pile)));
  const rules = table.rules || [];
  const actions = [];
  if (!playing && table.host === me) actions.push(commandButton("dvorak-start", "Start the game", "start"));
  if (playing && (myTurn || !turn)) actions.push(commandButton("dvorak-draw", "Draw a card", "drawcard"));
  if (playing && myTurn) actions.push(commandButton("dvorak-endturn", "End your turn", "endturn"));
  return panel(
    "dvorak-table",
    `Table: ${table.room}`,
    el("p", { class: "summary", text: summary.join("") }),
    table.result ? el("p", { class: "result", text: table.result }) : null,
    table.card_set
      ? el("p", {
          class: "card-set",
          text: `The CCG game: a card set of ${table.card_set.cards} cards, version ${table.card_set.version}.`,
        })
      : null,
    seats,
    pileLines,
    rules.length
      ? el(
          "details",
          { class: "rules" },
          el("summary", { text: `Special rules (${rules.length})` }),
          el(
            "ul",
            {},
            rules.map((card) => el("li", {}, cardLabel(card), cardText(card))),
          ),
        )
      : null,
    table.watching && table.watching.length ? el("p", { class: "watching", text: `Watching: ${table.watching.join(", ")}.` }) : null,
    actions.length ? el("div", { class: "buttons" }, actions) : null,
  );
}

function thingsInPlay(table) {
  const things = [];
  for (const seat of (table && table.seats) || []) {
    for (const card of seat.in_play || []) things.push({ ...card, owner: seat.name });
  }
  return things;
}

function dvorakHand(hand, table, selected) {
  const cards = (hand && hand.cards) || [];
  const things = thingsInPlay(table);
  const list = el(
    "ul",
    { class: "hand" },
    cards.map((card) => {
      const open = selected === card.number;
      const item = el(
        "li",
        { class: `card${open ? " selected" : ""}` },
        el(
          "button",
          {
            type: "button",
            id: `hand-card-${card.number}`,
            class: "card-button",
            "aria-expanded": open ? "true" : "false",
            "aria-controls": `card-actions-${card.number}`,
            onclick: () => selectCard(open ? null : card.number),
          },
          cardLabel(card),
          el("span", { class: "card-type", text: ` ${card.type}` }),
        ),
        card.text ? cardText(card) : null,
      );
      if (open) item.append(cardActions(card, things));
      return item;
    }),
  );
  return panel(
    "dvorak-hand",
    `Your hand (${cards.length})`,
    cards.length ? list : el("p", { class: "empty", text: "No cards in your hand." }),
  );
}

function cardActions(card, things) {
  const name = cardTitle(card);
  const others = things.filter((thing) => thing.number !== card.number);
  const box = el(
    "div",
    { id: `card-actions-${card.number}`, class: "card-actions", role: "group", "aria-label": `What to do with ${name}` },
    commandButton(`play-${card.number}`, "Play", `playcard ${card.number}`, { "aria-label": `Play ${name}` }),
    commandButton(`discard-${card.number}`, "Discard", `discard ${card.number}`, { "aria-label": `Discard ${name}` }),
  );
  if (others.length) {
    const select = el(
      "select",
      { id: `play-on-target-${card.number}` },
      others.map((thing) => el("option", { value: String(thing.number), text: `#${thing.number} ${thing.name} (${thing.owner})` })),
    );
    if (others.some((thing) => String(thing.number) === state.playOnTarget)) select.value = state.playOnTarget;
    // What is shown is what is chosen: a redraw (another player's move) keeps it, rather
    // than showing a different first Thing under the player's pointer.
    state.playOnTarget = select.value;
    select.addEventListener("change", () => {
      state.playOnTarget = select.value;
    });
    box.append(
      el("label", { for: select.id, text: "on" }),
      select,
      el(
        "button",
        {
          type: "button",
          id: `play-on-${card.number}`,
          "aria-label": `Play ${name} on the chosen Thing`,
          onclick: () => sendCommand(`playcard ${card.number} on ${select.value}`),
        },
        "Play on it",
      ),
    );
  }
  box.append(
    el(
      "button",
      { type: "button", id: `close-${card.number}`, "aria-label": `Close the actions of ${name}`, onclick: () => selectCard(null, card.number) },
      "Close",
    ),
  );
  return box;
}

function selectCard(number, returnTo) {
  state.selectedCard = number;
  state.playOnTarget = null;
  renderGame("Dvorak");
  const target = $(number !== null ? `play-${number}` : `hand-card-${returnTo}`);
  if (target) target.focus();
}

document.addEventListener("keydown", (event) => {
  if (event.key === "Escape" && state.selectedCard !== null && panels.contains(document.activeElement)) {
    const number = state.selectedCard;
    selectCard(null, number);
  }
});

function dvorakVotes(votes, me) {
  const pending = (votes && votes.pending) || [];
  if (!pending.length) return null;
  return panel(
    "dvorak-votes",
    `Votes (${votes.policy || "vote"})`,
    el(
      "ul",
      { class: "votes" },
      pending.map((vote) => {
        const first = vote.cards[0];
        const name = cardTitle(first);
        const mine = vote.approve.includes(me) ? "approve" : vote.reject.includes(me) ? "reject" : null;
        const who = (label, names) => (names.length ? `${label}: ${names.join(", ")}. ` : "");
        return el(
          "li",
          { class: "vote" },
          el(
            "ul",
            { class: "vote-cards" },
            vote.cards.map((card) =>
              el(
                "li",
                {},
                el("span", { class: "vote-kind", text: `${card.kind}: ` }),
                cardLabel(card),
                el("span", { class: "card-type", text: ` ${card.type}` }),
                card.text ? cardText(card) : null,
              ),
            ),
          ),
          el("p", {
            class: "vote-state",
            text: `Proposed by ${vote.proposer}. ${who("For", vote.approve)}${who("Against", vote.reject)}${who("Waiting for", vote.waiting)}`,
          }),
          el(
            "div",
            { class: "buttons" },
            commandButton(`approve-${first.number}`, "Approve", `approve ${first.number}`, {
              "aria-label": `Approve ${name}`,
              "aria-pressed": mine === "approve" ? "true" : "false",
            }),
            commandButton(`repeal-${first.number}`, "Repeal", `repeal ${first.number}`, {
              "aria-label": `Repeal ${name}`,
              "aria-pressed": mine === "reject" ? "true" : "false",
            }),
          ),
        );
      }),
    ),
  );
}

registerGame("Dvorak", {
  render(views, ui) {
    const table = views["Dvorak.Table"];
    if (isEmpty(table)) return [];
    const hand = views["Dvorak.Hand"];
    if (ui.selected !== null && !((hand && hand.cards) || []).some((card) => card.number === ui.selected)) {
      state.selectedCard = null;
      ui.selected = null;
    }
    return [dvorakTable(table, ui.name), dvorakHand(hand, table, ui.selected), dvorakVotes(views["Dvorak.Votes"], ui.name)].filter(
      Boolean,
    );
  },
});

// ---------------------------------------------------------------------------------------------
// Gnav: Gnav.Table (your seat's view).

function lives(count) {
  return el(
    "span",
    { class: "lives" },
    el("span", { class: "hearts", "aria-hidden": "true", text: "♥".repeat(Math.max(0, count)) }),
    ` ${count} ${count === 1 ? "life" : "lives"}`,
  );
}

registerGame("Gnav", {
  render(views) {
    const table = views["Gnav.Table"];
    if (isEmpty(table)) return [];
    const seats = table.seats || [];
    const byId = new Map(seats.map((seat) => [seat.id, seat]));
    const nameOf = (id) => (byId.has(id) ? byId.get(id).name : `#${id}`);
    const ordered = (table.order || []).filter((id) => byId.has(id)).map((id) => byId.get(id));
    for (const seat of seats) if (!ordered.includes(seat)) ordered.push(seat);
    const you = table.you;
    const playing = table.phase === "playing";
    const yourTurn = playing && you !== null && you !== undefined && table.turn === you;
    const summary = [`Phase: ${table.phase}.`];
    if (table.deal) summary.push(` Deal ${table.deal}.`);
    if (table.host !== null && table.host !== undefined) summary.push(` Host: ${nameOf(table.host)}.`);
    if (playing && byId.has(table.turn))
      summary.push(` Turn: ${table.turn === you ? "yours" : nameOf(table.turn)}.`);
    const list = el(
      "ol",
      { class: "seats", "aria-label": "Players in order" },
      ordered.map((seat) => {
        const marks = [];
        if (playing && seat.id === table.turn) marks.push(seat.id === you ? "your turn" : "their turn");
        if (seat.id === you) marks.push("you");
        if (seat.id === table.dealer) marks.push("dealer");
        if (seat.bot) marks.push(`computer, ${seat.bot}`);
        if (seat.resting) marks.push("sits this deal out");
        if (seat.out) marks.push("out");
        return el(
          "li",
          { class: `seat${playing && seat.id === table.turn ? " current" : ""}${seat.out ? " out" : ""}` },
          el("span", { class: "seat-name", text: seat.name }),
          " — ",
          lives(seat.lives),
          marks.length ? el("span", { class: "marks", text: ` (${marks.join(", ")})` }) : null,
        );
      }),
    );
    const revealed = table.revealed || [];
    const buttons = [];
    if (you !== null && you !== undefined) {
      const dealer = you === table.dealer;
      buttons.push(
        commandButton("gnav-keep", "Keep", "keep", { disabled: !yourTurn, "aria-label": "Keep your card" }),
        commandButton("gnav-swap", dealer ? "Swap with the stock" : "Swap", "swap", {
          disabled: !yourTurn,
          "aria-label": dealer ? "Swap with the stock: your card for its top card" : "Swap: ask the next player to swap cards",
        }),
      );
      if (!playing && table.host === you) {
        buttons.push(
          commandButton("gnav-addbot", "Add a computer player", "addbot"),
          commandButton("gnav-start", "Start the match", "start"),
        );
      }
    }
    return [
      panel(
        "gnav-table",
        "Gnav",
        el("p", { class: "summary", text: summary.join("") }),
        you !== null && you !== undefined
          ? el("p", { id: "gnav-card", class: "your-card" }, "Your card: ", el("strong", { text: table.card || "none" }))
          : el("p", { class: "summary", text: "You are watching." }),
        buttons.length ? el("div", { class: "buttons" }, buttons) : null,
        list,
        revealed.length ? el("p", { id: "gnav-revealed-title", class: "summary", text: "Cards shown:" }) : null,
        revealed.length
          ? el(
              "ul",
              { class: "revealed", "aria-labelledby": "gnav-revealed-title" },
              revealed.map((shown) => el("li", { text: `${nameOf(shown.holder)}: ${shown.card} (${shown.why})` })),
            )
          : null,
      ),
    ];
  },
});

// ---------------------------------------------------------------------------------------------
// Ys: Ys.View, the seat's view (games/ys/visibility.py seat_view): the board drawn as a board,
// the viewer's screen, and the moves as buttons that send the telnet commands (commands/ys).

const YS_COLOURS = ["blue", "green", "yellow", "red"];
const YS_GEMS = [...YS_COLOURS, "black", "white"];
const YS_RINGS = ["port", "commercial", "palace"];
const YS_RING_PRIZES = { port: "black gem", commercial: "3 points", palace: "action card" };
const YS_QUADRANTS = 4;
const YS_ROWS = 4;
const YS_PRICES = [0, 1, 2, 3, 4, 5, 6];
const YS_STAGES = { bid: "bidding", place: "placement", resolve: "resolution", favour: "the King's favour" };
/** How spaces are numbered in the commands and on the board: quadrants and market rows
 * 1-4 (the command grammar's ``city <quadrant 1-4> <ring>``, ``market <row 1-4> <colour>``). */
const YS_FIRST_NUMBER = 1;

/** The page's own choices on a Ys table, forgotten when the viewer's part in it changes
 * (another player's bid keeps them: see ysMoment). */
const ysChoice = { moment: null, bid: [], slot: "up", up: { broker: null, space: null }, down: { broker: null, space: null } };

function ysForget(moment) {
  ysChoice.moment = moment;
  ysChoice.bid = [];
  ysChoice.slot = "up";
  ysChoice.up = { broker: null, space: null };
  ysChoice.down = { broker: null, space: null };
}

const ysNumber = (index) => index + YS_FIRST_NUMBER;
const ysSpaceWords = (space) => `${space[0]} ${ysNumber(space[1])} ${space[2]}`;
const ysSpaceName = (space) =>
  space[0] === "city" ? `quadrant ${ysNumber(space[1])} ${space[2]}` : `market row ${ysNumber(space[1])} ${space[2]}`;
const ysSpaceId = (space) => `ys-space-${space[0]}-${space[1]}-${space[2]}`;
const ysSameSpace = (a, b) => Boolean(a && b) && a[0] === b[0] && a[1] === b[1] && a[2] === b[2];

function ysGem(colour, count) {
  const known = YS_GEMS.includes(colour) ? ` ys-gem-${colour}` : "";
  return el("span", { class: `ys-gem${known}`, text: count === undefined ? String(colour) : `${colour} ${count}` });
}

/** A broker on the board: its value, or "?" where the viewer may not know it; its owner's
 * colour, and their name for screen readers. */
function ysChip(entry, owner) {
  const hidden = entry.value === null || entry.value === undefined;
  const side = entry.up ? "face up" : "face down";
  return el(
    "span",
    { class: `ys-chip ${owner.colour}${entry.up ? "" : " down"}`, title: `${owner.name}: ${hidden ? "hidden" : entry.value}, ${side}` },
    el("span", { class: "sr-only", text: `${owner.name}, ${side}: ` }),
    hidden ? "?" : String(entry.value),
  );
}

/** What the viewer may do now: ``bid``, ``pair``, ``neutral``, ``favour``, ``answer`` or "". */
function ysMyMove(view) {
  const me = view.viewer;
  const mine = (view.players || []).find((p) => p.id === me);
  if (view.phase !== "playing" || !view.you || !mine) return "";
  const awaiting = view.awaiting || [];
  if (awaiting.length) return awaiting[0].player === me ? "answer" : "";
  if (view.stage === "bid") return mine.bid ? "" : "bid";
  if (view.stage === "place" && view.turn === me) return view.turn_part === "neutral" ? "neutral" : "pair";
  if (view.stage === "favour" && view.you.favour.length < view.round) return "favour";
  return "";
}

/** What the viewer's choices belong to: the round, stage and turn, and their own brokers. */
function ysMoment(view) {
  const screen = view.you ? view.you.screen.join(" ") : "";
  return `${view.round}/${view.stage}/${view.turn}/${view.turn_part}/${screen}`;
}

function ysRedraw(focusId) {
  renderGame("Ys");
  const target = focusId ? $(focusId) : null;
  if (target && !target.disabled) target.focus();
}

/** Whether a space may take a broker now (as far as the viewer can tell; the server decides). */
function ysOpen(view, space) {
  if (space[0] === "city") return (view.laid || [])[space[1]] !== -1;
  if (!(view.market || [])[space[1]]) return false;
  return !(view.placed || []).some((entry) => ysSameSpace(entry.space, space));
}

/** Once the broker being placed has both its broker and its space, the other one is next. */
function ysAdvance() {
  const slot = ysChoice[ysChoice.slot];
  const other = ysChoice.slot === "up" ? "down" : "up";
  if (slot.broker !== null && slot.space !== null && (ysChoice[other].broker === null || ysChoice[other].space === null))
    ysChoice.slot = other;
}

function ysPickSpace(move, space) {
  if (move === "neutral") ysChoice.up.space = space;
  else {
    ysChoice[ysChoice.slot].space = space;
    ysAdvance();
  }
  ysRedraw(ysSpaceId(space));
}

function ysSpaceCell(view, ctx, space, label, extra) {
  const chips = (view.placed || [])
    .filter((entry) => ysSameSpace(entry.space, space))
    .map((entry) => ysChip(entry, ctx.owner(entry.player)));
  const pending = [];
  for (const [slot, mark] of [["up", "face up"], ["down", "face down"]]) {
    const chosen = ysChoice[slot];
    if (ctx.placing && ysSameSpace(chosen.space, space)) {
      const value = chosen.broker === null ? "…" : ctx.brokerValue(chosen.broker);
      pending.push(
        el(
          "span",
          { class: `ys-chip pending${slot === "down" ? " down" : ""}`, title: `to place ${mark}` },
          `${value}${slot === "up" ? "↑" : "↓"}`,
          el("span", { class: "sr-only", text: ` (to place ${mark})` }),
        ),
      );
    }
  }
  const open = ctx.placing && ysOpen(view, space);
  const name = ysSpaceName(space);
  const heading = open
    ? el(
        "button",
        {
          type: "button",
          id: ysSpaceId(space),
          class: "ys-space-button",
          "aria-pressed": pending.length ? "true" : "false",
          "aria-label": `${name}: put the ${ctx.slotName} broker here`,
          onclick: () => ysPickSpace(ctx.move, space),
        },
        label,
      )
    : el("span", { class: "ys-space-name", text: label });
  return el(
    "div",
    {
      class: `ys-space ys-${space[0]}-space${open ? " open" : ""}`,
      "data-space": ysSpaceWords(space),
      role: "group",
      "aria-label": name,
    },
    heading,
    extra || null,
    el("span", { class: "ys-chips" }, chips, pending),
  );
}

/** An action card's name, its help (when it is played, what it does) as its tooltip. */
function ysCard(view, card) {
  if (!card) return el("span", { class: "ys-prize", text: "no card" });
  const help = (view.card_help || {})[card];
  return el("span", help ? { class: "ys-prize ys-action-card", title: help, tabindex: "0" } : { class: "ys-prize" }, card);
}

function ysCity(view, ctx) {
  const quadrants = [];
  for (let q = 0; q < YS_QUADRANTS; q += 1) {
    const inPlay = (view.laid || [])[q] !== -1;
    const corner = (view.corners || [])[q] || { up: null, left: 0 };
    const gems = (view.quadrant_gems || [])[q] || [];
    quadrants.push(
      el(
        "section",
        { class: `ys-quadrant${inPlay ? "" : " unused"}`, "aria-label": `Quadrant ${ysNumber(q)}` },
        el("h3", { text: `Quadrant ${ysNumber(q)}` }),
        inPlay
          ? el("p", { class: "ys-card" }, "Gem card: ", gems.length ? gems.map((gem) => ysGem(gem)) : "taken")
          : el("p", { class: "ys-card", text: "Not in play this game." }),
        el("p", { class: "ys-corner", text: `Corner: ${corner.left} action card${corner.left === 1 ? "" : "s"} face down` }),
        YS_RINGS.map((ring) =>
          ysSpaceCell(view, ctx, ["city", q, ring], ring, ring === "palace" ? ysCard(view, corner.up) : el("span", { class: "ys-prize", text: YS_RING_PRIZES[ring] })),
        ),
      ),
    );
  }
  return el("div", { class: "ys-city", role: "group", "aria-label": "The city" }, quadrants);
}

function ysMarket(view, ctx) {
  const cells = [el("span", { class: "ys-market-corner", text: "Market" })];
  for (const colour of YS_COLOURS) cells.push(el("span", { class: `ys-market-head ys-gem-${colour}`, text: colour }));
  for (let row = 0; row < YS_ROWS; row += 1) {
    const gem = (view.market || [])[row];
    cells.push(el("span", { class: "ys-market-row" }, `Row ${ysNumber(row)} `, gem ? ysGem(gem) : el("span", { class: "ys-empty", text: "no gem" })));
    for (const colour of YS_COLOURS) cells.push(ysSpaceCell(view, ctx, ["market", row, colour], "+"));
  }
  return el("div", { class: "ys-market", role: "group", "aria-label": "The market" }, cells);
}

function ysPriceTrack(view) {
  return el(
    "div",
    { class: "ys-prices", role: "group", "aria-label": "Gem prices" },
    YS_COLOURS.map((colour) =>
      el(
        "div",
        { class: "ys-price-row", "aria-label": `${colour}: price ${(view.prices || {})[colour]}`, role: "group" },
        el("span", { class: `ys-price-name ys-gem-${colour}`, text: colour }),
        YS_PRICES.map((price) =>
          el("span", {
            class: `ys-price${price === (view.prices || {})[colour] ? ` here ys-gem-${colour}` : ""}`,
            "aria-hidden": "true",
            text: String(price),
          }),
        ),
      ),
    ),
  );
}

function ysPlayers(view, ctx) {
  const players = view.players || [];
  const ordered = (view.order || []).map((id) => players.find((p) => p.id === id)).filter(Boolean);
  for (const p of players) if (!ordered.includes(p)) ordered.push(p);
  const waiting = ctx.waitingFor;
  return el(
    "ol",
    { class: "ys-players", "aria-label": "Players in turn order" },
    ordered.map((p) => {
      const marks = [];
      if (p.id === view.viewer) marks.push("you");
      if (p.neutral) marks.push("neutral player");
      if (p.bot) marks.push(`computer, ${p.bot}`);
      if (p.id === view.host) marks.push("host");
      if (waiting.includes(p.id)) marks.push(p.id === view.viewer ? "your move" : "to move");
      if (view.stage === "bid" && !p.neutral) marks.push(p.bid ? "has bid" : "bidding");
      const gems = YS_GEMS.filter((gem) => p.gems[gem]).map((gem) => ysGem(gem, p.gems[gem]));
      return el(
        "li",
        { class: `ys-player${waiting.includes(p.id) ? " current" : ""}` },
        el("span", { class: `ys-swatch ${ctx.owner(p.id).colour}`, "aria-hidden": "true" }),
        el("span", { class: "seat-name", text: p.name }),
        marks.length ? el("span", { class: "marks", text: ` (${marks.join(", ")})` }) : null,
        el(
          "span",
          { class: "ys-holdings" },
          `${p.points} point${p.points === 1 ? "" : "s"}, ${p.screen} behind the screen`,
          p.front ? `, in front: ${p.front.join(" ")}` : "",
          p.cards ? `, ${p.cards} action card${p.cards === 1 ? "" : "s"}` : "",
          p.favour ? `, ${p.favour} with the King` : "",
          gems.length ? el("span", { class: "ys-gems" }, ", gems: ", gems) : ", no gems",
        ),
      );
    }),
  );
}

function ysPrompt(view, prompt, ctx) {
  const me = view.viewer;
  if (prompt.player !== me) return el("p", { class: "ys-waiting", text: `Waiting for ${ctx.owner(prompt.player).name} to choose.` });
  const answers = [];
  let question;
  // Each answer: its button's label and the command it sends.
  if (prompt.ask === "order") {
    question = "Choose your order card for this round: 1 places first and wins ties.";
    for (const card of prompt.options || []) answers.push([`Order card ${card}`, `order ${card}`]);
  } else if (prompt.ask === "gem" || prompt.ask === "white") {
    question = prompt.ask === "white" ? "Swap your white gem for a gem of which colour?" : "Take a gem of which colour?";
    for (const colour of YS_COLOURS) answers.push([colour, `choose ${colour}`]);
  } else if (prompt.ask === "take") {
    question = `Take ${prompt.count} of the gems of quadrant ${ysNumber(prompt.quadrant)}:`;
    const seen = new Set();
    const options = prompt.options || [];
    const pick = (start, chosen) => {
      if (chosen.length === prompt.count) {
        const words = [...chosen].sort().join(" ");
        if (!seen.has(words)) {
          seen.add(words);
          answers.push([words, `choose ${words}`]);
        }
        return;
      }
      for (let i = start; i < options.length; i += 1) pick(i + 1, [...chosen, options[i]]);
    };
    pick(0, []);
  } else if (prompt.ask === "nudge") {
    question = "You lead the market: move one colour's price by one.";
    for (const colour of YS_COLOURS) for (const way of ["up", "down"]) answers.push([`${colour} ${way}`, `choose ${colour} ${way}`]);
  } else {
    question = `You are asked (${prompt.ask}): answer with the card's command (see the text).`;
  }
  return el(
    "div",
    { class: "ys-prompt", role: "group", "aria-label": question },
    el("p", { class: "ys-question", text: question }),
    answers.length
      ? el(
          "div",
          { class: "buttons" },
          answers.map(([label, command]) =>
            commandButton(`ys-${command.replaceAll(" ", "-")}`, label, command, { "aria-label": `Choose ${label}` }),
          ),
        )
      : null,
  );
}

function ysBrokerButtons(view, ctx) {
  const screen = view.you.screen;
  if (ctx.move === "bid") {
    return screen.map((value, index) => {
      const chosen = ysChoice.bid.includes(index);
      return el(
        "button",
        {
          type: "button",
          id: `ys-broker-${index}`,
          class: "ys-broker",
          "aria-pressed": chosen ? "true" : "false",
          "aria-label": `Broker ${value}: ${chosen ? "take back from" : "put in"} your bid`,
          onclick: () => {
            if (chosen) ysChoice.bid = ysChoice.bid.filter((i) => i !== index);
            else ysChoice.bid = [...ysChoice.bid.slice(-1), index];
            ysRedraw(`ys-broker-${index}`);
          },
        },
        String(value),
      );
    });
  }
  if (ctx.move === "pair") {
    return screen.map((value, index) => {
      const as = ysChoice.up.broker === index ? "up" : ysChoice.down.broker === index ? "down" : null;
      return el(
        "button",
        {
          type: "button",
          id: `ys-broker-${index}`,
          class: `ys-broker${as === "down" ? " down" : ""}`,
          "aria-pressed": as ? "true" : "false",
          "aria-label": `Broker ${value}: place it ${ctx.slotName}`,
          onclick: () => {
            for (const slot of ["up", "down"]) if (ysChoice[slot].broker === index) ysChoice[slot].broker = null;
            if (as !== ysChoice.slot) ysChoice[ysChoice.slot].broker = index;
            ysAdvance();
            ysRedraw(`ys-broker-${index}`);
          },
        },
        String(value),
        as ? el("span", { class: "ys-as", text: as === "up" ? " ↑" : " ↓" }) : null,
      );
    });
  }
  return screen.map((value) => el("span", { class: "ys-broker still", text: String(value) }));
}

function ysPairControls(view, ctx) {
  const describe = (slot) => {
    const chosen = ysChoice[slot];
    const broker = chosen.broker === null ? null : `broker ${ctx.brokerValue(chosen.broker)}`;
    const space = chosen.space === null ? null : ysSpaceName(chosen.space);
    if (broker && space) return `${broker} on ${space}`;
    if (broker) return `${broker}, choose a space`;
    if (space) return `choose a broker for ${space}`;
    return "choose a broker and a space";
  };
  const up = ysChoice.up;
  const down = ysChoice.down;
  const ready =
    up.broker !== null &&
    up.space !== null &&
    down.broker !== null &&
    down.space !== null &&
    !(up.space[0] === "market" && ysSameSpace(up.space, down.space));
  const command = ready
    ? `place ${ctx.brokerValue(up.broker)} ${ysSpaceWords(up.space)} ${ctx.brokerValue(down.broker)} ${ysSpaceWords(down.space)}`
    : "";
  return el(
    "div",
    { class: "ys-controls", role: "group", "aria-label": "Place a pair" },
    el("p", { class: "hint", text: "Choose Face up or Face down, then click a broker behind your screen and a space on the board." }),
    el(
      "div",
      { class: "buttons" },
      ["up", "down"].map((slot) =>
        el(
          "button",
          {
            type: "button",
            id: `ys-slot-${slot}`,
            "aria-pressed": ysChoice.slot === slot ? "true" : "false",
            "aria-label": `Face ${slot}: ${describe(slot)}`,
            onclick: () => {
              ysChoice.slot = slot;
              ysRedraw(`ys-slot-${slot}`);
            },
          },
          `Face ${slot}: ${describe(slot)}`,
        ),
      ),
    ),
    el(
      "div",
      { class: "buttons" },
      el(
        "button",
        {
          type: "button",
          id: "ys-place",
          disabled: !ready,
          "aria-label": ready ? `Place: ${command}` : "Place (choose two brokers and their spaces first)",
          onclick: () => sendCommand(command),
        },
        "Place",
      ),
      el(
        "button",
        {
          type: "button",
          id: "ys-clear",
          onclick: () => {
            ysForget(ysMoment(view));
            ysRedraw("ys-slot-up");
          },
        },
        "Clear",
      ),
    ),
  );
}

function ysNeutralControls(view, ctx) {
  // The viewer's own neutral brokers still to place this round (the other player's are hidden).
  const left = (view.you && view.you.neutral) || [];
  const chosen = ysChoice.up;
  const ready = chosen.broker !== null && chosen.space !== null;
  const command = ready ? `neutral ${chosen.broker} ${ysSpaceWords(chosen.space)}` : "";
  return el(
    "div",
    { class: "ys-controls", role: "group", "aria-label": "Place a neutral broker" },
    el("p", { class: "hint", text: "Place one of the neutral player's brokers face down: pick its value, then a space." }),
    el(
      "div",
      { class: "buttons" },
      left.map((value) =>
        el(
          "button",
          {
            type: "button",
            id: `ys-neutral-${value}`,
            "aria-pressed": chosen.broker === value ? "true" : "false",
            "aria-label": `Neutral broker ${value}`,
            onclick: () => {
              chosen.broker = chosen.broker === value ? null : value;
              ysRedraw(`ys-neutral-${value}`);
            },
          },
          String(value),
        ),
      ),
      el(
        "button",
        {
          type: "button",
          id: "ys-place-neutral",
          disabled: !ready,
          "aria-label": ready ? `Place: ${command}` : "Place the neutral broker (choose its value and a space first)",
          onclick: () => sendCommand(command),
        },
        "Place neutral broker",
      ),
    ),
  );
}

function ysScreen(view, ctx) {
  const you = view.you;
  const mine = view.players.find((p) => p.id === view.viewer);
  const controls = [];
  if (ctx.move === "bid") {
    const values = ysChoice.bid.map((index) => you.screen[index]);
    const ready = values.length === 2;
    controls.push(
      el("p", { class: "hint", text: "Bid two brokers for the turn order: click them, then Bid." }),
      el(
        "div",
        { class: "buttons" },
        el(
          "button",
          {
            type: "button",
            id: "ys-bid",
            disabled: !ready,
            "aria-label": ready ? `Bid ${values[0]} and ${values[1]}` : "Bid (choose two brokers first)",
            onclick: () => sendCommand(`bid ${values[0]} ${values[1]}`),
          },
          ready ? `Bid ${values[0]} + ${values[1]}` : "Bid",
        ),
      ),
    );
  } else if (ctx.move === "pair") controls.push(ysPairControls(view, ctx));
  else if (ctx.move === "neutral") controls.push(ysNeutralControls(view, ctx));
  else if (ctx.move === "favour") {
    controls.push(
      el("p", { class: "hint", text: "Give one broker in front of your screen to the King's favour:" }),
      el(
        "div",
        { class: "buttons" },
        [...new Set(you.front)].map((value) =>
          commandButton(`ys-favour-${value}`, String(value), `favour ${value}`, { "aria-label": `Give broker ${value} to the King's favour` }),
        ),
      ),
    );
  }
  const playable = (you.cards || []).filter((held) => held[1] < view.round && view.phase === "playing");
  const gems = YS_GEMS.filter((gem) => mine && mine.gems[gem]).map((gem) => ysGem(gem, mine.gems[gem]));
  return panel(
    "ys-screen",
    "Your screen",
    el("p", { class: "ys-screen-line" }, "Behind it: ", el("span", { class: "ys-brokers", role: "group", "aria-label": "Your brokers behind the screen" }, ysBrokerButtons(view, ctx))),
    you.front.length ? el("p", { text: `In front of it: ${you.front.join(" ")}` }) : null,
    you.favour.length ? el("p", { text: `With the King: ${you.favour.join(" ")}` }) : null,
    el("p", {}, mine ? `${mine.points} point${mine.points === 1 ? "" : "s"}. Gems: ` : "Gems: ", gems.length ? gems : "none"),
    you.cards.length
      ? el(
          "ul",
          { class: "ys-cards", "aria-label": "Your action cards" },
          you.cards.map(([card, won], index) =>
            el(
              "li",
              {},
              ysCard(view, card),
              ` (won in round ${won}) `,
              playable.some((held) => held[0] === card && held[1] === won)
                ? commandButton(`ys-play-${index}`, "Play", `play ${card}`, { "aria-label": `Play the ${card}` })
                : null,
            ),
          ),
        )
      : null,
    controls,
  );
}

registerGame("Ys", {
  render(views) {
    const view = views["Ys.View"];
    if (isEmpty(view) || !Array.isArray(view.players)) return [];
    if (ysChoice.moment !== ysMoment(view)) ysForget(ysMoment(view));
    const players = view.players;
    const owners = new Map(
      players.map((p, index) => [p.id, { name: p.name, colour: p.neutral ? "ys-pn" : `ys-p${index % 5}` }]),
    );
    const move = ysMyMove(view);
    const neutral = players.find((p) => p.neutral);
    const ctx = {
      move,
      placing: move === "pair" || move === "neutral",
      slotName: move === "neutral" ? "neutral" : `face-${ysChoice.slot}`,
      owner: (id) => owners.get(id) || { name: `#${id}`, colour: "ys-pn" },
      brokerValue: (index) => view.you.screen[index],
      neutralId: neutral ? neutral.id : null,
      waitingFor: [],
    };
    const awaiting = view.awaiting || [];
    if (view.phase === "playing") {
      if (awaiting.length) ctx.waitingFor = [awaiting[0].player];
      else if (view.stage === "bid") ctx.waitingFor = players.filter((p) => !p.neutral && !p.bid).map((p) => p.id);
      else if (view.stage === "place") ctx.waitingFor = [view.turn];
    }
    const summary = [];
    if (view.phase === "playing") {
      summary.push(`Round ${view.round} of 4: ${YS_STAGES[view.stage] || view.stage}.`);
      if (view.stage === "place" && view.turn !== view.viewer) summary.push(` ${ctx.owner(view.turn).name} places.`);
      if (move === "pair") summary.push(" Your turn: place a pair.");
      if (move === "neutral") summary.push(" Your turn: place a neutral broker.");
      if (move === "bid") summary.push(" Bid two brokers.");
    } else if (view.phase === "over") summary.push("The game is over.");
    else summary.push("Waiting for the host to start the game.");
    const buttons = [];
    if (view.phase !== "playing" && view.host === view.viewer) {
      buttons.push(commandButton("ys-addbot", "Add a computer player", "addbot"), commandButton("ys-start", "Start the game", "start"));
    }
    const board = panel(
      "ys-board",
      "Ys",
      el("p", { class: "summary", text: summary.join("") }),
      view.result ? el("p", { class: "result", text: view.result }) : null,
      awaiting.length ? ysPrompt(view, awaiting[0], ctx) : null,
      buttons.length ? el("div", { class: "buttons" }, buttons) : null,
      players.length ? ysPlayers(view, ctx) : null,
      players.length
        ? el("div", { class: "ys-table" }, ysCity(view, ctx), el("div", { class: "ys-side" }, ysMarket(view, ctx), ysPriceTrack(view)))
        : null,
    );
    const shown = [board];
    if (view.you && players.some((p) => p.id === view.viewer)) shown.push(ysScreen(view, ctx));
    return shown;
  },
});

// ---------------------------------------------------------------------------------------------

connect();
