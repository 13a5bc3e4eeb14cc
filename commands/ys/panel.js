// Ys's panel in the browser page: Ys.View, the seat's view (games/ys/visibility.py seat_view):
// the board drawn as a board, and above it the viewer's screen as a tray that stays in sight
// (sticky) while the board scrolls, so that a broker and a space are tapped without scrolling
// between them on a phone; every move a button that sends the telnet command (commands/ys).

import { $, commandButton, el, isEmpty, panel, registerGame, renderGame, sendCommand, t, tablePanel } from "/static/app.js";

const YS_COLOURS = ["blue", "green", "yellow", "red"];
const YS_GEMS = [...YS_COLOURS, "black", "white"];
const YS_RINGS = ["port", "commercial", "palace"];
const YS_QUADRANTS = 4;
const YS_ROWS = 4;
const YS_PRICES = [0, 1, 2, 3, 4, 5, 6];
/** How spaces are numbered in the commands and on the board: quadrants and market rows
 * 1-4 (the command grammar's ``city <quadrant 1-4> <ring>``, ``market <row 1-4> <colour>``). */
const YS_FIRST_NUMBER = 1;

/** The words the page shows for the game's words (the commands keep the English ones). */
const WORDS = {
  blue: () => t("blue"),
  green: () => t("green"),
  yellow: () => t("yellow"),
  red: () => t("red"),
  black: () => t("black"),
  white: () => t("white"),
  port: () => t("port"),
  commercial: () => t("commercial"),
  palace: () => t("palace"),
  up: () => t("up"),
  down: () => t("down"),
};
const word = (english) => (WORDS[english] ? WORDS[english]() : String(english));
const RING_PRIZES = { port: () => t("black gem"), commercial: () => t("3 points"), palace: () => t("action card") };
const STAGES = { bid: () => t("bidding"), place: () => t("placement"), resolve: () => t("resolution"), favour: () => t("the King's favour") };

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
  space[0] === "city"
    ? t("quadrant {n} {ring}", { n: ysNumber(space[1]), ring: word(space[2]) })
    : t("market row {n} {colour}", { n: ysNumber(space[1]), colour: word(space[2]) });
const ysSpaceId = (space) => `ys-space-${space[0]}-${space[1]}-${space[2]}`;
const ysSameSpace = (a, b) => Boolean(a && b) && a[0] === b[0] && a[1] === b[1] && a[2] === b[2];
const plural = (n, one, many) => (n === 1 ? one : many);

function ysGem(colour, count) {
  const known = YS_GEMS.includes(colour) ? ` ys-gem-${colour}` : "";
  return el("span", { class: `ys-gem${known}`, text: count === undefined ? word(colour) : `${word(colour)} ${count}` });
}

/** A broker on the board: its value, or "?" where the viewer may not know it; its owner's
 * colour, and their name for screen readers. */
function ysChip(entry, owner) {
  const hidden = entry.value === null || entry.value === undefined;
  const side = entry.up ? t("face up") : t("face down");
  const shown = hidden ? "?" : String(entry.value);
  return el(
    "span",
    {
      class: `ys-chip ${owner.colour}${entry.up ? "" : " down"}`,
      title: t("{name}: {value}, {side}", { name: owner.name, value: hidden ? t("hidden") : shown, side }),
    },
    el("span", { class: "sr-only", text: `${owner.name}, ${side}: ` }),
    shown,
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
  if (view.stage === "place" && view.turn === me) return view.turn_part === "neutral" ? "neutral" : view.turn_part === "pair" ? "pair" : "";
  if (view.stage === "favour" && view.you.favour.length < view.round) return "favour";
  return "";
}

/** What the viewer's choices belong to: the round, stage and turn, and their own brokers. */
function ysMoment(view) {
  const screen = view.you ? view.you.screen.join(" ") : "";
  return `${view.round}/${view.stage}/${view.turn}/${view.turn_part}/${screen}`;
}

/** Send ``command`` (as if typed) from a button in the tray, and let go of the focus: the
 * button is gone once the server answers, and the page would then put the focus in the
 * command line, scrolling a phone's page away from the board (Tab goes on from here). */
function ysSend(command) {
  sendCommand(command);
  if (document.activeElement instanceof HTMLElement) document.activeElement.blur();
}

/** A button that sends ``command`` (see ysSend). */
function ysCommandButton(id, label, command, props = {}) {
  return el("button", { type: "button", id, ...props, onclick: () => ysSend(command) }, label);
}

function ysRedraw(focusId) {
  renderGame("Ys");
  const target = focusId ? $(focusId) : null;
  // The focus stays where it was, and the page where it is: nothing scrolls on a tap.
  if (target && !target.disabled) target.focus({ preventScroll: true });
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
  if (move === "neutral") ysChoice.up.space = ysSameSpace(ysChoice.up.space, space) ? null : space;
  else {
    const slot = ysChoice[ysChoice.slot];
    slot.space = ysSameSpace(slot.space, space) ? null : space;
    ysAdvance();
  }
  ysRedraw(ysSpaceId(space));
}

function ysSpaceCell(view, ctx, space, label, extra) {
  const chips = (view.placed || [])
    .filter((entry) => ysSameSpace(entry.space, space))
    .map((entry) => ysChip(entry, ctx.owner(entry.player)));
  const pending = [];
  const slots = ctx.move === "neutral" ? ["up"] : ["up", "down"];
  for (const slot of slots) {
    const chosen = ysChoice[slot];
    if (ctx.placing && ysSameSpace(chosen.space, space)) {
      const value = chosen.broker === null ? "…" : ctx.move === "neutral" ? String(chosen.broker) : String(ctx.brokerValue(chosen.broker));
      const how = ctx.move === "neutral" ? t("to place, neutral") : slot === "up" ? t("to place face up") : t("to place face down");
      pending.push(
        el(
          "span",
          { class: `ys-chip pending${slot === "down" || ctx.move === "neutral" ? " down" : ""}`, title: how },
          `${value}${ctx.move === "neutral" ? "" : slot === "up" ? "↑" : "↓"}`,
          el("span", { class: "sr-only", text: ` (${how})` }),
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
          "aria-label": t("{space}: put the {which} broker here", { space: name, which: ctx.slotName }),
          onclick: () => ysPickSpace(ctx.move, space),
        },
        label,
      )
    : el("span", { class: "ys-space-name", text: label });
  return el(
    "div",
    {
      class: `ys-space ys-${space[0]}-space${open ? " open" : ""}${pending.length ? " chosen" : ""}`,
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
  if (!card) return el("span", { class: "ys-prize", text: t("no card") });
  const help = (view.card_help || {})[card];
  return el("span", help ? { class: "ys-prize ys-action-card", title: help, tabindex: "0" } : { class: "ys-prize" }, card);
}

function ysCity(view, ctx) {
  const quadrants = [];
  for (let q = 0; q < YS_QUADRANTS; q += 1) {
    const inPlay = (view.laid || [])[q] !== -1;
    const corner = (view.corners || [])[q] || { up: null, left: 0 };
    const gems = (view.quadrant_gems || [])[q] || [];
    const title = t("Quadrant {n}", { n: ysNumber(q) });
    quadrants.push(
      el(
        "section",
        { class: `ys-quadrant${inPlay ? "" : " unused"}`, "aria-label": title },
        el("h3", { text: title }),
        inPlay
          ? el("p", { class: "ys-card" }, t("Gem card:"), " ", gems.length ? gems.map((gem) => ysGem(gem)) : t("taken"))
          : el("p", { class: "ys-card", text: t("Not in play this game.") }),
        el("p", {
          class: "ys-corner",
          text: plural(corner.left, t("Corner: 1 action card face down"), t("Corner: {n} action cards face down", { n: corner.left })),
        }),
        YS_RINGS.map((ring) =>
          ysSpaceCell(
            view,
            ctx,
            ["city", q, ring],
            word(ring),
            ring === "palace" ? ysCard(view, corner.up) : el("span", { class: "ys-prize", text: RING_PRIZES[ring]() }),
          ),
        ),
      ),
    );
  }
  return el("div", { class: "ys-city", role: "group", "aria-label": t("The city") }, quadrants);
}

function ysMarket(view, ctx) {
  const cells = [el("span", { class: "ys-market-corner", text: t("Market") })];
  for (const colour of YS_COLOURS) cells.push(el("span", { class: `ys-market-head ys-gem-${colour}`, text: word(colour) }));
  for (let row = 0; row < YS_ROWS; row += 1) {
    const gem = (view.market || [])[row];
    cells.push(
      el(
        "span",
        { class: "ys-market-row" },
        t("Row {n}", { n: ysNumber(row) }),
        " ",
        gem ? ysGem(gem) : el("span", { class: "ys-empty", text: t("no gem") }),
      ),
    );
    for (const colour of YS_COLOURS) cells.push(ysSpaceCell(view, ctx, ["market", row, colour], "+"));
  }
  return el("div", { class: "ys-market", role: "group", "aria-label": t("The market") }, cells);
}

function ysPriceTrack(view) {
  return el(
    "div",
    { class: "ys-prices", role: "group", "aria-label": t("Gem prices") },
    YS_COLOURS.map((colour) =>
      el(
        "div",
        { class: "ys-price-row", "aria-label": t("{colour}: price {price}", { colour: word(colour), price: (view.prices || {})[colour] }), role: "group" },
        el("span", { class: `ys-price-name ys-gem-${colour}`, text: word(colour) }),
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

/** A player's holdings in words: points, brokers, cards, gems. */
function ysHoldings(view, p) {
  const parts = [
    plural(p.points, t("1 point"), t("{n} points", { n: p.points })),
    t("{n} behind the screen", { n: p.screen }),
  ];
  if (p.front) parts.push(t("in front: {brokers}", { brokers: p.front.join(" ") }));
  if (p.cards) parts.push(plural(p.cards, t("1 action card"), t("{n} action cards", { n: p.cards })));
  if (p.favour) parts.push(t("{n} with the King", { n: p.favour }));
  return parts.join(", ");
}

/** Each player's colour, marks and holdings in the shared seat list (seatList's options). */
function ysSeats(view, ctx) {
  const players = view.players || [];
  const byId = new Map(players.map((p) => [p.id, p]));
  const extra = (seat) => {
    const p = byId.get(seat.id);
    if (!p) return {};
    const marks = [];
    if (p.neutral) marks.push(t("neutral player"));
    if (view.stage === "bid" && !p.neutral && view.phase === "playing") marks.push(p.bid ? t("has bid") : t("bidding"));
    const gems = YS_GEMS.filter((gem) => p.gems[gem]).map((gem) => ysGem(gem, p.gems[gem]));
    return {
      lead: el("span", { class: `ys-swatch ${ctx.owner(p.id).colour}`, "aria-hidden": "true" }),
      marks,
      content: el(
        "span",
        { class: "ys-holdings" },
        ysHoldings(view, p),
        gems.length ? el("span", { class: "ys-gems" }, ", ", t("gems:"), " ", gems) : `, ${t("no gems")}`,
      ),
    };
  };
  return {
    order: view.order || [],
    extra,
    className: "ys-players",
    itemClass: "ys-player",
    others: players.filter((p) => p.neutral).map((p) => ({ id: p.id, name: p.name })),
  };
}

/** What the table asks the viewer (``prompt``), with an answer button each: the question and
 * the buttons, or null if the answer is typed only. */
function ysPrompt(view, prompt) {
  const answers = [];
  let question;
  // Each answer: its button's label, what a screen reader hears, and the command it sends.
  if (prompt.ask === "order") {
    question = t("Choose your order card for this round: 1 places first and wins ties.");
    for (const card of prompt.options || []) answers.push([t("Order card {n}", { n: card }), t("Choose order card {n}", { n: card }), `order ${card}`]);
  } else if (prompt.ask === "gem" || prompt.ask === "white") {
    question = prompt.ask === "white" ? t("Swap your white gem for a gem of which colour?") : t("Take a gem of which colour?");
    for (const colour of YS_COLOURS) answers.push([word(colour), t("Choose {answer}", { answer: word(colour) }), `choose ${colour}`]);
  } else if (prompt.ask === "take") {
    question = t("Take {n} of the gems of quadrant {quadrant}:", { n: prompt.count, quadrant: ysNumber(prompt.quadrant) });
    const seen = new Set();
    const options = prompt.options || [];
    const pick = (start, chosen) => {
      if (chosen.length === prompt.count) {
        const sorted = [...chosen].sort();
        const words = sorted.join(" ");
        if (!seen.has(words)) {
          seen.add(words);
          const label = sorted.map(word).join(" ");
          answers.push([label, t("Choose {answer}", { answer: label }), `choose ${words}`]);
        }
        return;
      }
      for (let i = start; i < options.length; i += 1) pick(i + 1, [...chosen, options[i]]);
    };
    pick(0, []);
  } else if (prompt.ask === "nudge") {
    question = t("You lead the market: move one colour's price by one.");
    for (const colour of YS_COLOURS)
      for (const way of ["up", "down"]) {
        const label = `${word(colour)} ${way === "up" ? "▲" : "▼"}`;
        answers.push([label, t("Move {colour} {way}", { colour: word(colour), way: word(way) }), `choose ${colour} ${way}`]);
      }
  } else {
    question = t("You are asked ({ask}): answer with the card's command (see the text).", { ask: prompt.ask });
  }
  return el(
    "div",
    { class: "ys-prompt", role: "group", "aria-label": question },
    el("p", { class: "ys-question", text: question }),
    answers.length
      ? el(
          "div",
          { class: "buttons" },
          answers.map(([label, spoken, command]) => ysCommandButton(`ys-${command.replaceAll(" ", "-")}`, label, command, { "aria-label": spoken })),
        )
      : null,
  );
}

/** The viewer's brokers behind the screen: buttons to bid or place with, or just shown. */
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
          "aria-label": t("Broker {value}: put in your bid", { value }),
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
      const label = as === "up" ? t("Broker {value}: to place face up", { value }) : as === "down" ? t("Broker {value}: to place face down", { value }) : t("Broker {value}", { value });
      return el(
        "button",
        {
          type: "button",
          id: `ys-broker-${index}`,
          class: `ys-broker${as === "down" ? " down" : ""}`,
          "aria-pressed": as ? "true" : "false",
          "aria-label": label,
          onclick: () => {
            for (const slot of ["up", "down"]) if (ysChoice[slot].broker === index) ysChoice[slot].broker = null;
            if (as !== ysChoice.slot) ysChoice[ysChoice.slot].broker = index;
            ysAdvance();
            ysRedraw(`ys-broker-${index}`);
          },
        },
        String(value),
        as ? el("span", { class: "ys-as", "aria-hidden": "true", text: as === "up" ? "↑" : "↓" }) : null,
      );
    });
  }
  return screen.map((value) => el("span", { class: "ys-broker still", text: String(value) }));
}

/** The button that sends a placement's ``command`` ("" until it is ready: disabled, and
 * labelled ``notReady``). */
function ysPlaceButton(id, label, command, notReady) {
  const props = { type: "button", id, class: "primary", disabled: !command, onclick: () => ysSend(command) };
  return el("button", { ...props, "aria-label": command ? t("Place: {command}", { command }) : notReady }, label);
}

function ysPairControls(view, ctx) {
  const describe = (slot) => {
    const chosen = ysChoice[slot];
    const broker = chosen.broker === null ? "…" : String(ctx.brokerValue(chosen.broker));
    const space = chosen.space === null ? "…" : ysSpaceName(chosen.space);
    return t("{broker} on {space}", { broker, space });
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
  const slotButton = (slot) => {
    const text = slot === "up" ? t("Face up: {what}", { what: describe(slot) }) : t("Face down: {what}", { what: describe(slot) });
    return el(
      "button",
      {
        type: "button",
        id: `ys-slot-${slot}`,
        class: `ys-slot ys-slot-${slot}`,
        "aria-pressed": ysChoice.slot === slot ? "true" : "false",
        onclick: () => {
          ysChoice.slot = slot;
          ysRedraw(`ys-slot-${slot}`);
        },
      },
      text,
    );
  };
  return el(
    "div",
    { class: "ys-controls", role: "group", "aria-label": t("Place a pair") },
    el("div", { class: "buttons ys-slots" }, slotButton("up"), slotButton("down")),
    el(
      "div",
      { class: "buttons" },
      ysPlaceButton("ys-place", t("Place"), command, t("Place (choose two brokers and their spaces first)")),
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
        t("Clear"),
      ),
    ),
  );
}

function ysNeutralControls(view) {
  // The viewer's own neutral brokers still to place this round (the other player's are hidden).
  const left = (view.you && view.you.neutral) || [];
  const chosen = ysChoice.up;
  const ready = chosen.broker !== null && chosen.space !== null;
  const command = ready ? `neutral ${chosen.broker} ${ysSpaceWords(chosen.space)}` : "";
  return el(
    "div",
    { class: "ys-controls", role: "group", "aria-label": t("Place a neutral broker") },
    el(
      "div",
      { class: "ys-brokers", role: "group", "aria-label": t("The neutral player's brokers") },
      left.map((value) =>
        el(
          "button",
          {
            type: "button",
            id: `ys-neutral-${value}`,
            class: "ys-broker ys-neutral-broker",
            "aria-pressed": chosen.broker === value ? "true" : "false",
            "aria-label": t("Neutral broker {value}", { value }),
            onclick: () => {
              chosen.broker = chosen.broker === value ? null : value;
              ysRedraw(`ys-neutral-${value}`);
            },
          },
          String(value),
        ),
      ),
    ),
    el(
      "div",
      { class: "buttons" },
      ysPlaceButton("ys-place-neutral", t("Place neutral broker"), command, t("Place the neutral broker (choose its value and a space first)")),
    ),
  );
}

/** The hint for the viewer's move, said in the tray. */
function ysHint(move) {
  if (move === "bid") return t("Bid two brokers for the turn order: tap two, then Bid.");
  if (move === "pair") return t("Your turn: tap a broker, then a space on the board; first face up, then face down. Then Place.");
  if (move === "neutral") return t("Place one of the neutral player's brokers face down: tap its value, then a space.");
  if (move === "favour") return t("Give one broker in front of your screen to the King's favour:");
  return "";
}

/** The viewer's screen as a tray over the board: their brokers and what they may do now
 * (sticky, panel.css: it stays in sight while the board scrolls under it). */
function ysTray(view, ctx) {
  const you = view.you;
  const awaiting = view.awaiting || [];
  const controls = [];
  if (ctx.move === "answer") controls.push(ysPrompt(view, awaiting[0]));
  else if (ctx.move === "bid") {
    const values = ysChoice.bid.map((index) => you.screen[index]);
    const ready = values.length === 2;
    controls.push(
      el(
        "div",
        { class: "buttons" },
        el(
          "button",
          {
            type: "button",
            id: "ys-bid",
            class: "primary",
            disabled: !ready,
            "aria-label": ready ? t("Bid {first} and {second}", { first: values[0], second: values[1] }) : t("Bid (choose two brokers first)"),
            onclick: () => ysSend(`bid ${values[0]} ${values[1]}`),
          },
          ready ? t("Bid {first} + {second}", { first: values[0], second: values[1] }) : t("Bid"),
        ),
      ),
    );
  } else if (ctx.move === "pair") controls.push(ysPairControls(view, ctx));
  else if (ctx.move === "neutral") controls.push(ysNeutralControls(view));
  else if (ctx.move === "favour") {
    controls.push(
      el(
        "div",
        { class: "buttons" },
        [...new Set(you.front)].map((value) =>
          ysCommandButton(`ys-favour-${value}`, String(value), `favour ${value}`, { "aria-label": t("Give broker {value} to the King's favour", { value }) }),
        ),
      ),
    );
  }
  const hint = ysHint(ctx.move);
  return el(
    "section",
    { id: "ys-screen", class: `ys-tray${ctx.move ? " acting" : ""}`, "aria-labelledby": "ys-screen-title" },
    el(
      "div",
      { class: "ys-tray-line" },
      el("h3", { id: "ys-screen-title", text: t("Your screen") }),
      el("span", { class: "ys-brokers", role: "group", "aria-label": t("Your brokers behind the screen") }, ysBrokerButtons(view, ctx)),
    ),
    you.front.length ? el("p", { class: "ys-front", text: t("In front of it: {brokers}", { brokers: you.front.join(" ") }) }) : null,
    hint ? el("p", { class: "hint ys-hint", text: hint }) : null,
    controls,
  );
}

/** What the viewer holds: points, gems, the King's favour, and their action cards (to play). */
function ysYours(view) {
  const you = view.you;
  const mine = view.players.find((p) => p.id === view.viewer);
  const playable = (you.cards || []).filter((held) => held[1] < view.round && view.phase === "playing");
  const gems = YS_GEMS.filter((gem) => mine && mine.gems[gem]).map((gem) => ysGem(gem, mine.gems[gem]));
  return panel(
    "ys-yours",
    t("Your holdings"),
    el(
      "p",
      {},
      mine ? plural(mine.points, t("1 point."), t("{n} points.", { n: mine.points })) : null,
      " ",
      t("Gems:"),
      " ",
      gems.length ? gems : t("none"),
    ),
    you.favour.length ? el("p", { text: t("With the King: {brokers}", { brokers: you.favour.join(" ") }) }) : null,
    you.cards.length
      ? el(
          "ul",
          { class: "ys-cards", "aria-label": t("Your action cards") },
          you.cards.map(([card, won], index) =>
            el(
              "li",
              {},
              ysCard(view, card),
              " ",
              t("(won in round {n})", { n: won }),
              " ",
              playable.some((held) => held[0] === card && held[1] === won)
                ? commandButton(`ys-play-${index}`, t("Play"), `play ${card}`, { "aria-label": t("Play the {card}", { card }) })
                : null,
            ),
          ),
        )
      : null,
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
      slotName: move === "neutral" ? t("neutral") : ysChoice.slot === "up" ? t("face-up") : t("face-down"),
      owner: (id) => owners.get(id) || { name: `#${id}`, colour: "ys-pn" },
      brokerValue: (index) => view.you.screen[index],
      neutralId: neutral ? neutral.id : null,
    };
    const awaiting = view.awaiting || [];
    const summary = [];
    if (view.phase === "playing") {
      summary.push(t("Round {round} of 4: {stage}.", { round: view.round, stage: STAGES[view.stage] ? STAGES[view.stage]() : view.stage }));
      if (view.stage === "place" && view.turn !== view.viewer) summary.push(t("{name} places.", { name: ctx.owner(view.turn).name }));
      if (move === "pair") summary.push(t("Your turn: place a pair."));
      if (move === "neutral") summary.push(t("Your turn: place a neutral broker."));
      if (move === "bid") summary.push(t("Bid two brokers."));
      if (awaiting.length && awaiting[0].player !== view.viewer) summary.push(t("Waiting for {name} to choose.", { name: ctx.owner(awaiting[0].player).name }));
    } else if (view.phase === "over") summary.push(t("The game is over."));
    else summary.push(t("Waiting for the host to start the game."));
    const buttons = [];
    if (view.phase !== "playing" && view.host === view.viewer) {
      buttons.push(commandButton("ys-addbot", t("Add a computer player"), "addbot"), commandButton("ys-start", t("Start the game"), "start"));
    }
    const seated = Boolean(view.you) && players.some((p) => p.id === view.viewer);
    const board = tablePanel("ys-board", "Ys", {
      turnWord: "move",
      above: [
        el("p", { class: "summary", text: summary.join(" ") }),
        buttons.length ? el("div", { class: "buttons" }, buttons) : null,
        seated && view.phase === "playing" ? ysTray(view, ctx) : null,
      ],
      seats: ysSeats(view, ctx),
      below: players.length
        ? [el("div", { class: "ys-table" }, ysCity(view, ctx), el("div", { class: "ys-side" }, ysMarket(view, ctx), ysPriceTrack(view)))]
        : [],
    });
    const shown = [board];
    if (seated) shown.push(ysYours(view));
    return shown;
  },
});
