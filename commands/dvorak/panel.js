// Dvorak's panels in the browser page: Dvorak.Table, Dvorak.Hand and Dvorak.Votes drawn as the
// table, your hand (each card's moves as buttons) and the votes; card references (#12) in the
// text as buttons that put "readcard 12" in the command line. Every button sends a command the
// player could have typed (commands/dvorak).

import { $, colourClasses, commandButton, el, isEmpty, panel, putInCommandLine, registerGame, renderGame, sendCommand, tablePanel } from "/static/app.js";

/** The hand card whose actions are open, and the Thing chosen in its "on" list (kept when the
 * panels are drawn again). */
let selectedCard = null;
let playOnTarget = null;

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
  if (turn) summary.push(` Turn ${turn.number}: drawn ${turn.drawn}, Things ${turn.things}, Actions ${turn.actions}.`);
  const byName = new Map((table.seats || []).map((seat) => [seat.name, seat]));
  // Each seat's team, deck, hand size and what is in play in front of them.
  const extra = (shared) => {
    const seat = byName.get(shared.name);
    if (!seat) return {};
    const marks = [];
    if (seat.team) marks.push(`team ${seat.team}`);
    if (seat.deck !== null && seat.deck !== undefined) marks.push(`deck of ${seat.deck}`);
    const inPlay = seat.in_play || [];
    const faceDown = seat.face_down || [];
    return {
      marks,
      content: [
        ` — ${seat.cards} card${seat.cards === 1 ? "" : "s"} in hand`,
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
      ],
    };
  };
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
  return tablePanel("dvorak-table", `Table: ${table.room}`, {
    above: [
      el("p", { class: "summary", text: summary.join("") }),
      table.card_set
        ? el("p", {
            class: "card-set",
            text: `The CCG game: a card set of ${table.card_set.cards} cards, version ${table.card_set.version}.`,
          })
        : null,
    ],
    seats: { extra, label: "Seats in turn order" },
    below: [
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
    ],
  });
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
    if (others.some((thing) => String(thing.number) === playOnTarget)) select.value = playOnTarget;
    // What is shown is what is chosen: a redraw (another player's move) keeps it, rather
    // than showing a different first Thing under the player's pointer.
    playOnTarget = select.value;
    select.addEventListener("change", () => {
      playOnTarget = select.value;
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
  selectedCard = number;
  playOnTarget = null;
  renderGame("Dvorak");
  const target = $(number !== null ? `play-${number}` : `hand-card-${returnTo}`);
  if (target) target.focus();
}

document.addEventListener("keydown", (event) => {
  if (event.key === "Escape" && selectedCard !== null && $("panels").contains(document.activeElement)) {
    const number = selectedCard;
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
    if (selectedCard !== null && !((hand && hand.cards) || []).some((card) => card.number === selectedCard)) {
      selectedCard = null;
    }
    return [dvorakTable(table, ui.name), dvorakHand(hand, table, selectedCard), dvorakVotes(views["Dvorak.Votes"], ui.name)].filter(
      Boolean,
    );
  },
  decorateText: linkCardReferences,
  forget() {
    selectedCard = null;
    playOnTarget = null;
  },
});

