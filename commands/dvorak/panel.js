// Dvorak's panels in the browser page, drawn as a card table from Dvorak.Table, Dvorak.Hand and
// Dvorak.Votes (commands/dvorak/gmcp.py; docs/players.md shows their JSON): the votes first
// while something is pending; the table, each seat's play area as cards (a Thing played on a
// Thing tucked under its host); your hand as cards (nothing of it for a spectator); and a form
// to propose a card. A hand card chosen offers only the moves the turn allows (games/dvorak:
// the draws, plays and actions settings, the turn's counts, halt while a vote is pending), and
// "Play on…" asks for the card to play it on: nothing is chosen for the player. Every button
// sends a command the player could have typed (commands/dvorak). Card references (#12) in the
// text become buttons that put "readcard 12" in the command line. Its style: panel.css.

import { $, announce, colourClasses, commandButton, el, isEmpty, panel, putInCommandLine, registerGame, renderGame, sendCommand, t, tablePanel } from "/static/app.js";

/** What the panel remembers between renders (render runs again on every package): the hand
 * card chosen, and whether its "Play on…" target list is open. */
let selectedCard = null;
let choosingTarget = false;

/** A card's type as shown: the game's two words in the reader's language, any other as its
 * author wrote it. */
function typeWord(type) {
  if (type === "Thing") return t("Thing");
  if (type === "Action") return t("Action");
  if (type === "Rule") return t("Rule");
  return String(type || "");
}

/** The class a card's type gives its face (the colour of its band). */
function typeClass(type) {
  if (type === "Action") return "dv-action";
  if (type === "Thing") return "dv-thing";
  if (type === "Rule") return "dv-rule";
  return "dv-other";
}

const isAction = (card) => {
  const kind = String(card.type || "").trim().toLowerCase();
  return kind === "action" || kind === "a" || kind.startsWith("action ");
};

/** A card's words as the text pane shows them: its %r marks are line breaks. */
function cardText(card) {
  const lines = String(card.text || "")
    .split("%r")
    .map((line) => line.trim());
  return el("p", { class: "card-text", text: lines.join("\n") });
}

/** ``#12 Kevlar Vest`` as nodes: the number small, the name in its colour. */
function cardLabel(card) {
  return [
    el("span", { class: "card-number", text: `#${card.number}` }),
    " ",
    el("span", { class: `card-name ${colourClasses(card.colour)}`.trim(), text: card.name }),
  ];
}

const cardTitle = (card) => `#${card.number} ${card.name}`;

/** A card's face: its number and type along the top, its name, and its text if it has one
 * (the cards in play are sent without) and ``withText``. */
function cardFace(card, { withText = true, extraClass = "" } = {}) {
  return [
    el(
      "span",
      { class: "dv-card-top" },
      el("span", { class: "card-number", text: `#${card.number}` }),
      " ",
      el("span", { class: "card-type", text: typeWord(card.type) }),
    ),
    " ",
    el("span", { class: `dv-card-name card-name ${colourClasses(card.colour)} ${extraClass}`.trim(), text: card.name }),
    withText && card.text ? cardText(card) : null,
  ];
}

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

$("scrollback").addEventListener("click", (event) => {
  const ref = event.target.closest("button.ref");
  if (!ref) return;
  putInCommandLine(`readcard ${ref.dataset.card}`);
});

// ---------------------------------------------------------------------------------------------
// What the viewer may do now (games/dvorak/rules.py and core.py decide; this only hides the
// buttons the server would refuse).

/** The piles the viewer draws from: the shared ones, or their own in a multi-deck game. */
function ownPiles(table, me) {
  const piles = table.piles || {};
  if ("draw" in piles) return piles;
  return piles[me] || null;
}

function moves(table, hand, votes, me) {
  const seat = (table.seats || []).find((s) => s.name === me) || null;
  const settings = table.settings || {};
  const playing = table.phase === "playing";
  const none = { seated: Boolean(seat), myTurn: false, halted: false, draw: false, thing: false, action: false, discard: false, endturn: false };
  if (!playing || !seat || seat.out) return none;
  const halted = Boolean(settings.halt) && ((votes && votes.pending) || []).length > 0;
  const piles = ownPiles(table, me);
  const drawable = piles ? piles.draw > 0 || (piles.discard > 0 && settings.reshuffle !== false) : true;
  const held = ((hand && hand.cards) || []).length;
  const limit = Number(settings.handlimit) || 0;
  const turn = table.turn;
  if (!turn) {
    // Turns are off: anyone seated draws, plays and discards when they like.
    return { seated: true, myTurn: false, halted, draw: !halted && drawable, thing: !halted, action: !halted, discard: !halted, endturn: false };
  }
  const myTurn = turn.player === me;
  const draws = Number(settings.draws ?? 1);
  // Discarding is a turn's last step: nothing is drawn or played after it.
  const discarded = Number(turn.discarded) > 0;
  const mustDraw = myTurn && !discarded && turn.drawn < draws && drawable; // a turn begins by drawing
  const free = myTurn && !halted && !mustDraw && !discarded;
  return {
    seated: true,
    myTurn,
    halted,
    draw: myTurn && !halted && !discarded && draws > 0 && turn.drawn < draws && drawable,
    thing: free && turn.things < Number(settings.plays ?? 1),
    action: free && turn.actions < Number(settings.actions ?? 1),
    discard: myTurn && !halted && !mustDraw && limit > 0 && held > limit,
    // Ending the turn waits for a vote too, and for a hand down to the limit.
    endturn: myTurn && !halted && !mustDraw && (limit === 0 || held <= limit),
    mustDraw,
  };
}

// ---------------------------------------------------------------------------------------------
// The table: each seat's play area as cards.

/** The cards in play, by number, each with its owner; and each host's cards played on it. */
function cardsInPlay(table) {
  const byNumber = new Map();
  for (const seat of table.seats || []) for (const card of seat.in_play || []) byNumber.set(card.number, { ...card, owner: seat.name });
  const onIt = new Map();
  for (const card of byNumber.values()) {
    if (card.on === null || card.on === undefined || !byNumber.has(card.on) || card.on === card.number) continue;
    if (!onIt.has(card.on)) onIt.set(card.on, []);
    onIt.get(card.on).push(card);
  }
  return { byNumber, onIt };
}

/** A card in play, and under it the cards played on it (theirs nested the same way). */
function playedCard(card, inPlay, seatName, seen = new Set()) {
  seen.add(card.number);
  const children = (inPlay.onIt.get(card.number) || []).filter((child) => !seen.has(child.number));
  const host = card.on !== null && card.on !== undefined ? inPlay.byNumber.get(card.on) : null;
  const label = host
    ? card.owner === seatName
      ? t("{card} ({type}), on {host}", { card: cardTitle(card), type: typeWord(card.type), host: cardTitle(host) })
      : t("{card} ({type}, {name}'s), on {host}", { card: cardTitle(card), type: typeWord(card.type), name: card.owner, host: cardTitle(host) })
    : t("{card} ({type})", { card: cardTitle(card), type: typeWord(card.type) });
  return el(
    "li",
    { class: "dv-played", "data-card": String(card.number) },
    el(
      "div",
      { class: `dv-card dv-mini ${typeClass(card.type)}${choosingTarget ? " dv-target" : ""}`, title: label },
      el("span", { class: "sr-only", text: label }),
      el("span", { "aria-hidden": "true" }, cardFace(card, { withText: false })),
      host && card.owner !== seatName ? el("span", { class: "dv-owner", "aria-hidden": "true", text: t("{name}'s", { name: card.owner }) }) : null,
    ),
    children.length
      ? el(
          "ul",
          { class: "dv-on-it", "aria-label": t("Played on {card}", { card: cardTitle(card) }) },
          children.map((child) => playedCard(child, inPlay, seatName, seen)),
        )
      : null,
  );
}

/** A seat's play area: its cards in play that are on no card in play (the rest under their
 * hosts, wherever those are), then its face-down cards by label. */
function playArea(seat, inPlay, ownFaceDown) {
  const top = (seat.in_play || []).filter((card) => card.on === null || card.on === undefined || !inPlay.byNumber.has(card.on) || card.on === card.number);
  const faceDown = seat.face_down || [];
  if (!top.length && !faceDown.length) return el("p", { class: "dv-nothing", text: t("Nothing in play.") });
  return el(
    "ul",
    { class: "in-play", "aria-label": t("In play in front of {name}", { name: seat.name }) },
    top.map((card) => playedCard({ ...card, owner: seat.name }, inPlay, seat.name)),
    faceDown.map((label) => {
      const known = ownFaceDown.get(label);
      return el(
        "li",
        { class: "dv-played face-down" },
        el(
          "div",
          { class: "dv-card dv-mini dv-back" },
          el("span", { class: "sr-only", text: t("face-down card") + " " }),
          el("span", { class: "dv-back-label", text: label }),
          known ? el("span", { class: "dv-back-known", text: t("yours: {card}", { card: cardTitle(known) }) }) : null,
        ),
      );
    }),
  );
}

/** A pile: a card back with its count, or the discard pile's top card face up. */
function piles(pile, owner) {
  const top = pile.discard_top;
  const line = owner
    ? t("{name}'s piles: draw pile {draw}, discard pile {discard}", { name: owner, draw: pile.draw, discard: pile.discard })
    : t("Piles: draw pile {draw}, discard pile {discard}", { draw: pile.draw, discard: pile.discard });
  return el(
    "div",
    { class: "dv-piles" },
    el(
      "div",
      { class: "dv-pile", "aria-hidden": "true" },
      el("div", { class: `dv-card dv-mini dv-back${pile.draw ? "" : " dv-empty"}` }, el("span", { class: "dv-back-label", text: String(pile.draw) })),
      el("span", { class: "dv-pile-name", text: t("Draw") }),
    ),
    el(
      "div",
      { class: "dv-pile", "aria-hidden": "true" },
      top
        ? el("div", { class: `dv-card dv-mini ${typeClass(top.type)}` }, cardFace(top, { withText: false }))
        : el("div", { class: "dv-card dv-mini dv-empty" }),
      el("span", { class: "dv-pile-name", text: t("Discard ({n})", { n: pile.discard }) }),
    ),
    el("p", { class: "piles" }, line, top ? el("span", {}, ", ", t("top:"), " ", cardLabel(top)) : null),
  );
}

function dvorakTable(table, hand, can, me) {
  const playing = table.phase === "playing";
  const turn = table.turn;
  const phases = { waiting: t("waiting for players"), playing: t("playing"), over: t("over") };
  const summary = [t("Phase: {phase}.", { phase: phases[table.phase] || table.phase })];
  if (turn) {
    summary.push(
      " " + t("Turn {n}: drawn {drawn}, Things {things}, Actions {actions}.", { n: turn.number, drawn: turn.drawn, things: turn.things, actions: turn.actions }),
    );
  }
  const inPlay = cardsInPlay(table);
  const ownFaceDown = new Map(((hand && hand.face_down) || []).map((card) => [card.label, card]));
  const byName = new Map((table.seats || []).map((seat) => [seat.name, seat]));
  const extra = (shared) => {
    const seat = byName.get(shared.name);
    if (!seat) return {};
    const marks = [];
    if (seat.team) marks.push(t("team {team}", { team: seat.team }));
    if (seat.deck !== null && seat.deck !== undefined) marks.push(t("deck of {n}", { n: seat.deck }));
    return {
      marks,
      content: [
        el("span", { class: "dv-held", text: seat.cards === 1 ? t("1 card in hand") : t("{n} cards in hand", { n: seat.cards }) }),
        playArea(seat, inPlay, seat.name === me ? ownFaceDown : new Map()),
      ],
    };
  };
  const tablePiles = table.piles || {};
  const pileNodes = "draw" in tablePiles ? [piles(tablePiles, null)] : Object.entries(tablePiles).map(([owner, pile]) => piles(pile, owner));
  const rules = table.rules || [];
  const actions = [];
  if (!playing && table.host === me) actions.push(commandButton("dvorak-start", t("Start the game"), "start", { class: "primary" }));
  if (can.draw) actions.push(commandButton("dvorak-draw", t("Draw a card"), "drawcard", { class: "primary" }));
  if (can.endturn) actions.push(commandButton("dvorak-endturn", t("End your turn"), "endturn"));
  let note = null;
  if (can.halted && (can.myTurn || !turn)) note = t("Play waits for the vote (halt is on).");
  else if (can.mustDraw && !can.draw) note = t("Draw first: a turn begins by drawing.");
  else if (can.myTurn && can.discard && !can.endturn) note = t("Discard down to the hand limit of {n} to end your turn.", { n: (table.settings || {}).handlimit });
  return tablePanel("dvorak-table", t("Table: {room}", { room: table.room }), {
    above: [
      el("p", { class: "summary dv-status", text: summary.join("") }),
      table.card_set
        ? el("p", {
            class: "card-set",
            text: t("The CCG game: a card set of {n} cards, version {version}.", { n: table.card_set.cards, version: table.card_set.version }),
          })
        : null,
      note ? el("p", { class: "dv-note", role: "status", text: note }) : null,
      actions.length ? el("div", { class: "buttons" }, actions) : null,
    ],
    seats: { extra, label: "Seats in turn order", className: "dv-seats", itemClass: "dv-seat" },
    below: [
      el("div", { class: "dv-pile-row" }, pileNodes),
      rules.length
        ? el(
            "details",
            { class: "rules" },
            el("summary", { text: t("Special rules ({n})", { n: rules.length }) }),
            el(
              "ul",
              { class: "dv-rules" },
              rules.map((card) => el("li", { class: "dv-card dv-rule" }, cardFace(card))),
            ),
          )
        : null,
      table.watching && table.watching.length ? el("p", { class: "watching", text: t("Watching: {names}.", { names: table.watching.join(", ") }) }) : null,
    ],
  });
}

// ---------------------------------------------------------------------------------------------
// Your hand, and what to do with the card chosen.

function dvorakHand(hand, table, can) {
  const cards = (hand && hand.cards) || [];
  const chosen = cards.find((card) => card.number === selectedCard) || null;
  const list = el(
    "ul",
    { class: "hand" },
    cards.map((card) => {
      const open = chosen === card;
      return el(
        "li",
        { class: `card dv-card ${typeClass(card.type)}${open ? " selected" : ""}` },
        el(
          "button",
          {
            type: "button",
            id: `hand-card-${card.number}`,
            class: "card-button",
            "aria-expanded": open ? "true" : "false",
            "aria-controls": "dvorak-card-actions",
            onclick: () => selectCard(open ? null : card.number, card.number),
          },
          el("span", { class: "sr-only", text: open ? t("Chosen:") + " " : "" }),
          // The text goes after the button (a button holds no paragraphs).
          cardFace(card, { withText: false }),
        ),
        card.text ? cardText(card) : null,
      );
    }),
  );
  return panel(
    "dvorak-hand",
    t("Your hand ({n})", { n: cards.length }),
    cards.length ? list : el("p", { class: "empty", text: t("No cards in your hand.") }),
    chosen ? cardActions(chosen, table, can) : null,
  );
}

/** The moves of the hand card chosen: only those the turn allows; "Play on…" opens the list
 * of cards in play to play it on, each with its full label. */
function cardActions(card, table, can) {
  const name = cardTitle(card);
  const action = isAction(card);
  const playable = action ? can.action : can.thing;
  const buttons = [];
  if (playable) {
    buttons.push(commandButton(`play-${card.number}`, t("Play"), `playcard ${card.number}`, { class: "primary", "aria-label": t("Play {card}", { card: name }) }));
  }
  const targets = [...cardsInPlay(table).byNumber.values()];
  if (playable && !action && targets.length) {
    buttons.push(
      el(
        "button",
        {
          type: "button",
          id: `play-on-${card.number}`,
          "aria-expanded": choosingTarget ? "true" : "false",
          "aria-controls": "dvorak-targets",
          "aria-label": t("Play on… (choose the card to play {card} on)", { card: name }),
          onclick: () => {
            choosingTarget = !choosingTarget;
            renderGame("Dvorak");
            const first = document.querySelector("#dvorak-targets button");
            if (choosingTarget && first) first.focus();
          },
        },
        t("Play on…"),
      ),
    );
  }
  if (can.discard) buttons.push(commandButton(`discard-${card.number}`, t("Discard"), `discard ${card.number}`, { "aria-label": t("Discard {card}", { card: name }) }));
  buttons.push(
    el(
      "button",
      { type: "button", id: `close-${card.number}`, "aria-label": t("Close the actions of {card}", { card: name }), onclick: () => selectCard(null, card.number) },
      t("Close"),
    ),
  );
  let why = null;
  if (!playable) {
    if (!can.seated) why = null;
    else if (can.halted) why = t("Play waits for the vote (halt is on).");
    else if (table.turn && !can.myTurn) why = t("You may play it on your turn.");
    else if (can.mustDraw) why = t("Draw first: a turn begins by drawing.");
    else if (action) why = t("You have played the Actions this turn allows.");
    else why = t("You have played the Things this turn allows.");
  }
  return el(
    "div",
    { id: "dvorak-card-actions", class: "card-actions-box" },
    el(
      "div",
      { id: `card-actions-${card.number}`, class: "card-actions", role: "group", "aria-label": t("What to do with {card}", { card: name }) },
      el("span", { class: "dv-chosen" }, cardLabel(card)),
      why ? el("span", { class: "dv-why", text: why }) : null,
      el("span", { class: "buttons" }, buttons),
    ),
    playable && !action && choosingTarget && targets.length
      ? el(
          "div",
          { id: "dvorak-targets", class: "dv-targets", role: "group", "aria-label": t("Play {card} on which card?", { card: name }) },
          el("p", { class: "dv-targets-title", text: t("Play {card} on which card?", { card: name }) }),
          el(
            "ul",
            {},
            targets.map((target) =>
              el(
                "li",
                {},
                commandButton(
                  `play-${card.number}-on-${target.number}`,
                  t("{card} ({type}, {name}'s)", { card: cardTitle(target), type: typeWord(target.type), name: target.owner }),
                  `playcard ${card.number} on ${target.number}`,
                  { class: "dv-target-button" },
                ),
              ),
            ),
          ),
        )
      : null,
  );
}

function selectCard(number, returnTo) {
  selectedCard = number;
  choosingTarget = false;
  renderGame("Dvorak");
  const box = $(`card-actions-${number}`);
  const target = number !== null && box ? box.querySelector("button") : $(`hand-card-${returnTo}`);
  if (target) target.focus();
}

document.addEventListener("keydown", (event) => {
  if (event.key !== "Escape" || selectedCard === null || !$("panels").contains(document.activeElement)) return;
  if (choosingTarget) {
    choosingTarget = false;
    renderGame("Dvorak");
    const back = $(`play-on-${selectedCard}`);
    if (back) back.focus();
    return;
  }
  selectCard(null, selectedCard);
});

// ---------------------------------------------------------------------------------------------
// The votes, and the form to propose a card (kept across renders: what is typed stays).

function dvorakVotes(votes, me, seated) {
  const pending = (votes && votes.pending) || [];
  if (!pending.length) return null;
  const policy = { unanimous: t("unanimous"), majority: t("majority"), any: t("any vote decides") }[votes && votes.policy] || (votes && votes.policy) || t("vote");
  return panel(
    "dvorak-votes",
    t("Votes ({policy}): {n} pending", { policy, n: pending.length }),
    el(
      "ul",
      { class: "votes" },
      pending.map((vote) => {
        const first = vote.cards[0];
        const name = cardTitle(first);
        const mine = vote.approve.includes(me) ? "approve" : vote.reject.includes(me) ? "reject" : null;
        const who = [];
        if (vote.approve.length) who.push(t("For: {names}.", { names: vote.approve.join(", ") }));
        if (vote.reject.length) who.push(t("Against: {names}.", { names: vote.reject.join(", ") }));
        if (vote.waiting.length) who.push(t("Waiting for: {names}.", { names: vote.waiting.join(", ") }));
        const kinds = { card: t("New card"), rule: t("New rule") };
        return el(
          "li",
          { class: "vote" },
          el(
            "ul",
            { class: "vote-cards" },
            vote.cards.map((card) =>
              el(
                "li",
                { class: `dv-card dv-vote-card ${typeClass(card.type)}` },
                el("span", { class: "vote-kind", text: kinds[card.kind] || card.kind }),
                cardFace(card),
              ),
            ),
          ),
          el("p", { class: "vote-state", text: [t("Proposed by {name}.", { name: vote.proposer }), ...who].join(" ") }),
          seated
            ? el(
                "div",
                { class: "buttons" },
                commandButton(`approve-${first.number}`, t("Approve"), `approve ${first.number}`, {
                  class: "dv-approve",
                  "aria-label": t("Approve {card}", { card: name }),
                  "aria-pressed": mine === "approve" ? "true" : "false",
                }),
                commandButton(`repeal-${first.number}`, t("Reject"), `repeal ${first.number}`, {
                  class: "dv-reject",
                  "aria-label": t("Reject {card}", { card: name }),
                  "aria-pressed": mine === "reject" ? "true" : "false",
                }),
              )
            : null,
        );
      }),
    ),
  );
}

/** The "Propose a card" form, made once and kept (a re-render moves it, with what is typed
 * in it); its labels are written again each render (the reader may change the language). */
let propose = null;

function proposeForm() {
  if (!propose) {
    const field = (id, tag, props = {}, ...children) => el(tag, { id, name: id, ...props }, ...children);
    const name = field("dvorak-propose-name", "input", { type: "text", required: true, maxlength: "60", autocomplete: "off", pattern: "[^\\/]*[^\\/\\s][^\\/]*" });
    const type = field(
      "dvorak-propose-type",
      "select",
      {},
      el("option", { value: "T" }),
      el("option", { value: "A" }),
      el("option", { value: "rule" }),
    );
    const text = field("dvorak-propose-text", "textarea", { rows: "3", maxlength: "2000" });
    const labels = {
      name: el("label", { for: name.id }),
      type: el("label", { for: type.id }),
      text: el("label", { for: text.id }),
    };
    const submit = el("button", { type: "submit", id: "dvorak-propose-send", class: "primary" });
    const hint = el("p", { class: "hint dv-propose-hint", id: "dvorak-propose-hint" });
    name.setAttribute("aria-describedby", hint.id);
    const summary = el("summary", { id: "dvorak-propose-summary" });
    const form = el(
      "form",
      { id: "dvorak-propose-form", class: "dv-propose-form" },
      el("div", { class: "dv-field" }, labels.name, name),
      el("div", { class: "dv-field" }, labels.type, type),
      el("div", { class: "dv-field dv-wide" }, labels.text, text),
      hint,
      el("div", { class: "buttons" }, submit),
    );
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const cardName = name.value.trim();
      if (!cardName || cardName.includes("/")) return;
      // Line breaks are written %r, as the text pane writes them.
      const words = text.value
        .split(/\r?\n/)
        .map((line) => line.trim())
        .join("%r")
        .trim();
      const line = type.value === "rule" ? `newrule ${cardName}/${words}` : `newcard ${cardName}/${type.value}/${words}`;
      if (sendCommand(line)) {
        name.value = "";
        text.value = "";
        name.focus();
      }
    });
    propose = { node: el("details", { id: "dvorak-propose", class: "dv-propose" }, summary, form), name, type, text, labels, submit, hint, summary };
  }
  propose.summary.textContent = t("Propose a card");
  propose.labels.name.textContent = t("Card name");
  propose.labels.type.textContent = t("Card type");
  propose.labels.text.textContent = t("Card text");
  propose.type.options[0].textContent = t("Thing");
  propose.type.options[1].textContent = t("Action");
  propose.type.options[2].textContent = t("Special rule");
  propose.submit.textContent = t("Propose");
  propose.hint.textContent = t("No slash (/) in the name. The table votes on it.");
  return propose.node;
}

/** The votes told to screen readers already (by their first card). */
const announcedVotes = new Set();

registerGame("Dvorak", {
  render(views, ui) {
    const table = views["Dvorak.Table"];
    if (isEmpty(table)) return [];
    const hand = views["Dvorak.Hand"];
    const votes = views["Dvorak.Votes"];
    const me = ui.name;
    const can = moves(table, hand, votes, me);
    if (selectedCard !== null && !((hand && hand.cards) || []).some((card) => card.number === selectedCard)) {
      selectedCard = null;
      choosingTarget = false;
    }
    const pending = ((votes && votes.pending) || []).length > 0;
    // Each vote that waits for this player is told to screen readers once.
    for (const vote of (votes && votes.pending) || []) {
      const card = cardTitle(vote.cards[0]);
      if (!vote.waiting.includes(me) || announcedVotes.has(card)) continue;
      announcedVotes.add(card);
      announce(t("A vote waits for you: {card}.", { card }));
    }
    const votesPanel = dvorakVotes(votes, me, can.seated);
    // Seated players propose cards (its own panel, last: the votes stay short).
    const proposePanel = can.seated ? el("section", { id: "dvorak-new", class: "panel", "aria-label": t("Propose a card") }, proposeForm()) : null;
    const tableNode = dvorakTable(table, hand, can, me);
    // A spectator has no hand. The votes come first while something waits for them.
    const handNode = can.seated ? dvorakHand(hand, table, can) : null;
    const order = pending ? [votesPanel, tableNode, handNode, proposePanel] : [tableNode, handNode, proposePanel];
    return order.filter(Boolean);
  },
  decorateText: linkCardReferences,
  forget() {
    announcedVotes.clear();
    selectedCard = null;
    choosingTarget = false;
    propose = null;
  },
});
