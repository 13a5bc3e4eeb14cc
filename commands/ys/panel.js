// Ys's panel in the browser page: Ys.View, the seat's view (games/ys/visibility.py seat_view):
// the board drawn as a board, the viewer's screen, and the moves as buttons that send the telnet
// commands (commands/ys).

import { $, commandButton, el, isEmpty, panel, registerGame, renderGame, sendCommand, tablePanel } from "/static/app.js";

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

/** Each player's colour, marks and holdings in the shared seat list (seatList's options). */
function ysSeats(view, ctx) {
  const players = view.players || [];
  const byId = new Map(players.map((p) => [p.id, p]));
  const extra = (seat) => {
    const p = byId.get(seat.id);
    if (!p) return {};
    const marks = [];
    if (p.neutral) marks.push("neutral player");
    if (view.stage === "bid" && !p.neutral && view.phase === "playing") marks.push(p.bid ? "has bid" : "bidding");
    const gems = YS_GEMS.filter((gem) => p.gems[gem]).map((gem) => ysGem(gem, p.gems[gem]));
    return {
      lead: el("span", { class: `ys-swatch ${ctx.owner(p.id).colour}`, "aria-hidden": "true" }),
      marks,
      content: el(
        "span",
        { class: "ys-holdings" },
        `${p.points} point${p.points === 1 ? "" : "s"}, ${p.screen} behind the screen`,
        p.front ? `, in front: ${p.front.join(" ")}` : "",
        p.cards ? `, ${p.cards} action card${p.cards === 1 ? "" : "s"}` : "",
        p.favour ? `, ${p.favour} with the King` : "",
        gems.length ? el("span", { class: "ys-gems" }, ", gems: ", gems) : ", no gems",
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
      ysPlaceButton("ys-place", "Place", command, "Place (choose two brokers and their spaces first)"),
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

/** The button that sends a placement's ``command`` ("" until it is ready: disabled, and
 * labelled ``notReady``). */
function ysPlaceButton(id, label, command, notReady) {
  const props = { type: "button", id, disabled: !command, onclick: () => sendCommand(command) };
  return el("button", { ...props, "aria-label": command ? `Place: ${command}` : notReady }, label);
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
      ysPlaceButton(
        "ys-place-neutral",
        "Place neutral broker",
        command,
        "Place the neutral broker (choose its value and a space first)",
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
    };
    const awaiting = view.awaiting || [];
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
    const board = tablePanel("ys-board", "Ys", {
      turnWord: "move",
      above: [
        el("p", { class: "summary", text: summary.join("") }),
        awaiting.length ? ysPrompt(view, awaiting[0], ctx) : null,
        buttons.length ? el("div", { class: "buttons" }, buttons) : null,
      ],
      seats: ysSeats(view, ctx),
      below: players.length
        ? [el("div", { class: "ys-table" }, ysCity(view, ctx), el("div", { class: "ys-side" }, ysMarket(view, ctx), ysPriceTrack(view)))]
        : [],
    });
    const shown = [board];
    if (view.you && players.some((p) => p.id === view.viewer)) shown.push(ysScreen(view, ctx));
    return shown;
  },
});

