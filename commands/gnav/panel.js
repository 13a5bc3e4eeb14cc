// Gnav's panel in the browser page: Gnav.Table, your seat's view (games/gnav/visibility.py
// seat_view), drawn as the seats, your card and the moves as buttons that send the telnet
// commands (commands/gnav).

import { commandButton, el, isEmpty, panel, registerGame } from "/static/app.js";

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

