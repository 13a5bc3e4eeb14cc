// Gnav's panel in the browser page: Gnav.Table, your seat's view (games/gnav/visibility.py
// seat_view), drawn as the seats, your card and the moves as buttons that send the telnet
// commands (commands/gnav).

import { commandButton, el, isEmpty, registerGame, t, tablePanel } from "/static/app.js";

/** A table's phase, as the panel names it. */
const PHASES = { waiting: () => t("waiting"), playing: () => t("playing"), over: () => t("over") };

function lives(count) {
  return el(
    "span",
    { class: "lives" },
    el("span", { class: "hearts", "aria-hidden": "true", text: "♥".repeat(Math.max(0, count)) }),
    " " + t("lives: {n}", { n: count }),
  );
}

registerGame("Gnav", {
  render(views) {
    const table = views["Gnav.Table"];
    if (isEmpty(table)) return [];
    const byId = new Map((table.seats || []).map((seat) => [seat.id, seat]));
    const nameOf = (id) => (byId.has(id) ? byId.get(id).name : `#${id}`);
    const you = table.you;
    const playing = table.phase === "playing";
    const yourTurn = playing && you !== null && you !== undefined && table.turn === you;
    const phase = PHASES[table.phase] ? PHASES[table.phase]() : table.phase;
    const summary = [t("Phase: {phase}.", { phase })];
    if (table.deal) summary.push(" " + t("Deal {n}.", { n: table.deal }));
    const revealed = table.revealed || [];
    const buttons = [];
    if (you !== null && you !== undefined) {
      const dealer = you === table.dealer;
      buttons.push(
        commandButton("gnav-keep", t("Keep"), "keep", { disabled: !yourTurn, "aria-label": t("Keep your card") }),
        commandButton("gnav-swap", dealer ? t("Swap with the stock") : t("Swap"), "swap", {
          disabled: !yourTurn,
          "aria-label": dealer ? t("Swap with the stock: your card for its top card") : t("Swap: ask the next player to swap cards"),
        }),
      );
      if (!playing && table.host === you) {
        buttons.push(
          commandButton("gnav-addbot", t("Add a computer player"), "addbot"),
          commandButton("gnav-start", t("Start the match"), "start"),
        );
      }
    }
    // Each seat's lives (once a match has dealt them), and who deals or sits the deal out.
    const extra = (seat) => {
      const own = byId.get(seat.id);
      if (!own) return {};
      const marks = [];
      if (own.id === table.dealer) marks.push(t("dealer"));
      if (own.resting) marks.push(t("sits this deal out"));
      return { marks, content: table.phase === "waiting" ? null : [" — ", lives(own.lives)] };
    };
    return [
      tablePanel("gnav-table", "Gnav", {
        above: [
          el("p", { class: "summary", text: summary.join("") }),
          you !== null && you !== undefined
            ? el("p", { id: "gnav-card", class: "your-card" }, t("Your card:") + " ", el("strong", { text: table.card || t("none") }))
            : el("p", { class: "summary", text: t("You are watching.") }),
          buttons.length ? el("div", { class: "buttons" }, buttons) : null,
        ],
        seats: { order: table.order || [], extra },
        below: revealed.length
          ? [
              el("p", { id: "gnav-revealed-title", class: "summary", text: t("Cards shown:") }),
              el(
                "ul",
                { class: "revealed", "aria-labelledby": "gnav-revealed-title" },
                revealed.map((shown) => el("li", { text: `${nameOf(shown.holder)}: ${shown.card} (${shown.why})` })),
              ),
            ]
          : [],
      }),
    ];
  },
});
