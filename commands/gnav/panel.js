// Gnav's panel in the browser page: Gnav.Table, your seat's view (games/gnav/visibility.py
// seat_view; commands/gnav/game.py table_json), drawn as a card table: the seats around a green
// felt, each with its card (face up where the viewer knows it), lives and marks; the stock by the
// dealer; your card and where it stands among the 21 ranks; the last swap of the deal; and the
// moves as buttons that send the telnet commands (commands/gnav). Its style: panel.css beside it.

import { commandButton, currentRoomName, el, isEmpty, registerGame, t, tablePanel, tableSummary } from "/static/app.js";

/** A table's phase, as the panel names it. */
const PHASES = { waiting: () => t("waiting"), playing: () => t("playing"), over: () => t("over") };
/** How long a swap's cards move (milliseconds): panel.css's gnav-swap keyframes take as long. */
const SWAP_MS = 1200;
/** Seats on one side of the table, at most (8 seats: four a side). */
const SIDE = 4;

/** What the panel remembers between renders (render runs again on every package): the table
 * (by its room) and deal it last drew and how many swaps that deal had, so that a new swap is
 * seen as one; and the swap now moving, with when it began. */
let seen = null;
let moving = null;

/** The swap that appeared since the last render, if any (remembering what this one shows). */
function noteSwaps(table) {
  const swaps = Array.isArray(table.swaps) ? table.swaps : [];
  const deal = table.deal;
  // A table first seen (another room) moves nothing; a new deal starts with no swaps; a Cat
  // undoes them all: fewer than before is no move.
  const room = currentRoomName();
  const before = seen === null || seen.room !== room ? swaps.length : seen.deal === deal ? seen.count : 0;
  if (swaps.length > before) moving = { deal, count: swaps.length, swap: swaps[swaps.length - 1], since: Date.now() };
  else if (moving && (moving.deal !== deal || swaps.length < moving.count)) moving = null;
  seen = { room, deal, count: swaps.length };
}

/** ``node``, a card, moving if it takes part in the swap now moving (``takesPart``), kept going
 * across re-draws (each re-draw makes new nodes: they start the animation as far in as it
 * already is). */
function moveWith(node, takesPart) {
  const elapsed = moving ? Date.now() - moving.since : SWAP_MS;
  if (!takesPart || elapsed >= SWAP_MS) return node;
  node.classList.add("gnav-moving");
  node.style.animationDelay = `-${elapsed}ms`;
  return node;
}

/** A card's two names: "Cuckoo / Gjøk", or one where they are the same ("VII"). */
function bothNames(rank) {
  return rank.name === rank.norwegian ? rank.name : `${rank.name} / ${rank.norwegian}`;
}

/** A card face up: its name in the reader's language and its Norwegian name, a matador marked
 * with a star (and said to be one). ``card``: {key, rank, name}; ``ranks``: Gnav.Table's. */
function faceUp(card, ranks, size = "") {
  const rank = ranks[card.rank] || { name: card.name, norwegian: card.name, matador: false };
  const name = card.name || rank.name;
  const label =
    rank.norwegian && rank.norwegian !== name
      ? rank.matador
        ? t("{name} ({norwegian}), a matador", { name, norwegian: rank.norwegian })
        : t("{name} ({norwegian})", { name, norwegian: rank.norwegian })
      : rank.matador
        ? t("{name}, a matador", { name })
        : name;
  return el(
    "div",
    {
      class: ["gnav-card", "face-up", rank.matador ? "matador" : "", size].filter(Boolean).join(" "),
      role: "img",
      "aria-label": label,
      "data-key": card.key,
    },
    rank.matador ? el("span", { class: "gnav-card-star", "aria-hidden": "true", text: "★" }) : null,
    el("span", { class: "gnav-card-name", text: name }),
    rank.norwegian && rank.norwegian !== name ? el("span", { class: "gnav-card-norwegian", text: rank.norwegian }) : null,
  );
}

/** A card face down: its patterned back. */
function faceDown(size = "", label = t("a face-down card")) {
  return el("div", { class: ["gnav-card", "face-down", size].filter(Boolean).join(" "), role: "img", "aria-label": label });
}

/** A seat's lives: a heart for each (for the eye) and the number said. */
function lives(count) {
  const n = Math.max(0, count || 0);
  return el(
    "span",
    { class: "gnav-lives" },
    el("span", { class: "gnav-hearts", "aria-hidden": "true", text: n ? "♥".repeat(n) : "♡" }),
    el("span", { class: "sr-only", text: n === 1 ? t("1 life") : t("{n} lives", { n }) }),
  );
}

/** Where your card stands among the 21 ranks, Fool lowest, Cuckoo highest: one cell a rank,
 * yours raised and pointed at, the matadors starred; the two ends named under it. */
function rankStrip(card, ranks) {
  const label = t("Your card, {name}, is {n} of 21 from the lowest.", { name: card.name, n: card.rank + 1 });
  const cells = ranks.map((rank, index) =>
    el(
      "span",
      { class: ["gnav-rank", rank.matador ? "matador" : "", index === card.rank ? "yours" : ""].filter(Boolean).join(" ") },
      rank.matador ? "★" : null,
    ),
  );
  const lowest = ranks[0];
  const highest = ranks[ranks.length - 1];
  return el(
    "div",
    { class: "gnav-strip" },
    el("div", { id: "gnav-ranks", class: "gnav-ranks", role: "img", "aria-label": label }, cells),
    el(
      "p",
      { class: "gnav-strip-ends", "aria-hidden": "true" },
      el("span", { text: lowest ? bothNames(lowest) : "" }),
      el("span", { text: t("★ matadors") }),
      el("span", { text: highest ? bothNames(highest) : "" }),
    ),
  );
}

/** The line about the deal's newest swap: who swapped with whom (or with the stock). */
function swapLine(swap, nameOf, you) {
  if (!swap) return null;
  const asker = swap.asker === you ? null : nameOf(swap.asker);
  let text;
  if (swap.how === "stock") text = asker === null ? t("You swapped with the stock.") : t("{name} swapped with the stock.", { name: asker });
  else if (asker === null) text = t("You swapped with {name}.", { name: nameOf(swap.other) });
  else if (swap.other === you) text = t("{name} swapped with you.", { name: asker });
  else text = t("{asker} swapped with {other}.", { asker, other: nameOf(swap.other) });
  return el("p", { id: "gnav-swap-line", class: "gnav-swap-line", text });
}

/** The seats placed around the felt, clockwise from the top left: the first half of the turn
 * order along the top, the rest back along the bottom (the dealer, last, at the bottom left,
 * next to the stock). Each seat gets its row and column (panel.css: an 8-column grid, a seat
 * two columns wide). */
function placeSeats(list) {
  const seats = [...list.children];
  const top = Math.min(SIDE, Math.ceil(seats.length / 2));
  const bottom = Math.min(SIDE, seats.length - top);
  seats.forEach((seat, index) => {
    if (index < top) seat.classList.add("gnav-top", `gnav-col-${SIDE - top + 1 + 2 * index}`);
    else if (index < top + bottom) seat.classList.add("gnav-bottom", `gnav-col-${SIDE - bottom + 1 + 2 * (top + bottom - 1 - index)}`);
  });
}

registerGame("Gnav", {
  render(views) {
    const table = views["Gnav.Table"];
    if (isEmpty(table)) return [];
    noteSwaps(table);
    const ranks = Array.isArray(table.ranks) ? table.ranks : [];
    const byId = new Map((table.seats || []).map((seat) => [seat.id, seat]));
    const nameOf = (id) => (byId.has(id) ? byId.get(id).name : `#${id}`);
    const you = table.you === undefined ? null : table.you;
    const playing = table.phase === "playing";
    const yourTurn = playing && you !== null && table.turn === you;
    const dealing = table.phase !== "waiting";
    const inDeal = new Set(table.order || []);
    const swap = moving && moving.deal === table.deal ? moving.swap : (table.swaps || [])[(table.swaps || []).length - 1];
    const swapping = new Set(moving ? [moving.swap.asker, ...(moving.swap.how === "seat" ? [moving.swap.other] : [])] : []);

    const phase = PHASES[table.phase] ? PHASES[table.phase]() : table.phase;
    const status = [t("Phase: {phase}.", { phase })];
    if (table.deal) status.push(" " + t("Deal {n}.", { n: table.deal }));

    const buttons = [];
    // Keep and Swap while you are dealt in (enabled on your turn); the host's between matches.
    if (you !== null && playing && inDeal.has(you)) {
      const dealer = you === table.dealer;
      buttons.push(
        commandButton("gnav-keep", t("Keep"), "keep", { disabled: !yourTurn, "aria-label": t("Keep your card") }),
        commandButton("gnav-swap", dealer ? t("Swap with the stock") : t("Swap"), "swap", {
          disabled: !yourTurn,
          "aria-label": dealer ? t("Swap with the stock: your card for its top card") : t("Swap: ask the next player to swap cards"),
        }),
      );
    }
    if (you !== null && !playing && table.host === you) {
      buttons.push(
        commandButton("gnav-addbot", t("Add a computer player"), "addbot"),
        commandButton("gnav-start", t("Start the match"), "start"),
      );
    }

    // Your card, large, and where it stands among the ranks (nothing of it for a spectator).
    const yours =
      you !== null && table.your_card
        ? el(
            "div",
            { id: "gnav-card", class: "gnav-yours" },
            el("p", { class: "gnav-yours-title", text: t("Your card:") }),
            el("div", { class: "gnav-yours-row" }, moveWith(faceUp(table.your_card, ranks, "large"), swapping.has(you)), rankStrip(table.your_card, ranks)),
          )
        : you === null
          ? el("p", { class: "summary gnav-watching", text: t("You are watching.") })
          : null;

    // Each seat: its card (face up where the viewer knows it), lives, and the dealer's and a
    // resting seat's chips; the shared list adds the name and the other marks.
    const extra = (summarySeat) => {
      const seat = byId.get(summarySeat.id);
      if (!seat) return {};
      let card = null;
      if (dealing && inDeal.has(seat.id)) {
        const known = seat.known || (seat.id === you ? table.your_card : null);
        card = known ? faceUp(known, ranks) : faceDown();
        moveWith(card, swapping.has(seat.id));
      }
      const chips = [];
      if (seat.id === table.dealer && dealing) chips.push(el("span", { class: "gnav-chip gnav-dealer-chip", text: t("dealer") }));
      if (seat.resting) chips.push(el("span", { class: "gnav-chip gnav-resting-chip", text: t("sits this deal out") }));
      return {
        lead: el("div", { class: "gnav-seat-card" }, card || el("div", { class: "gnav-card gnav-no-card", "aria-hidden": "true" })),
        // Out of the match: no hearts (the shared marks say "out").
        content: el("span", { class: "gnav-seat-info" }, dealing && !seat.out ? lives(seat.lives) : null, chips),
      };
    };

    const section = tablePanel("gnav-table", "Gnav", {
      above: [
        el("p", { class: "summary gnav-status", text: status.join("") }),
        yours,
        buttons.length ? el("div", { class: "buttons" }, buttons) : null,
      ],
      seats: { order: table.order || [], extra, className: "gnav-seats", itemClass: "gnav-seat" },
    });

    // The seats around the felt, the stock and the newest swap in its middle.
    const list = section.querySelector("ol.seats");
    if (list && tableSummary()) {
      placeSeats(list);
      const stock =
        dealing && Number.isInteger(table.stock)
          ? el(
              "div",
              { class: "gnav-stock" },
              moveWith(faceDown("gnav-pile", t("The stock: {n} cards, face down", { n: table.stock })), moving && moving.swap.how === "stock"),
              el("span", { class: "gnav-stock-count", "aria-hidden": "true", text: t("Stock: {n}", { n: table.stock }) }),
            )
          : null;
      const middle = el("div", { class: "gnav-middle" }, stock, swapLine(swap, nameOf, you));
      const felt = el("div", { class: "gnav-felt" });
      list.replaceWith(felt);
      felt.append(list, middle);
    }
    return [section];
  },

  forget() {
    seen = null;
    moving = null;
  },
});
