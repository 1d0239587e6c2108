// The table as the server drew it (`bot/render/activity.py`): every word comes in the member's language,
// so this file holds none. `act` sends a move; the dice are buttons named for screen readers.

export interface Player {
  id: string;
  name: string;
  points: string;
  team: string | null;
  active: boolean;
  current: boolean;
  host: boolean;
  chance: string | null;
}

export interface Table {
  stage: "none" | "lobby" | "playing" | "over" | "closed";
  game_id?: string;
  version: number | null;
  rules?: string;
  target?: string;
  players?: Player[];
  current?: string | null;
  deadline?: number | null;
  final_round?: boolean;
  winners?: string[];
  recent?: string[];
  moves: string[];
  words: Record<string, string>;
  language: string;
  turn?: { total: number; roll: number[]; picked: number[]; die_names: string[]; set_aside: number[]; hot_dice: boolean };
  labels?: { roll: string; bank: string; piggyback?: string };
  bank_blocked?: string | null;
  last_turn?: string[];
}

export type Act = (action: string, arg?: number) => void;

const PIPS: Record<number, number[]> = { 1: [4], 2: [0, 8], 3: [0, 4, 8], 4: [0, 2, 6, 8], 5: [0, 2, 4, 6, 8], 6: [0, 2, 3, 5, 6, 8] };

function element(tag: string, className = "", text = ""): HTMLElement {
  const made = document.createElement(tag);
  if (className) made.className = className;
  if (text) made.textContent = text;
  return made;
}

/** Discord's **bold** and ~~struck~~ in a line of text, everything else as text. */
function line(text: string, className = ""): HTMLElement {
  const shown = element("p", className);
  for (const part of text.split(/(\*\*[^*]+\*\*|~~[^~]+~~)/)) {
    if (part.startsWith("**") && part.endsWith("**") && part.length > 4) shown.append(element("b", "", part.slice(2, -2)));
    else if (part.startsWith("~~") && part.endsWith("~~") && part.length > 4) shown.append(element("s", "", part.slice(2, -2)));
    else shown.append(part.replace(/^-# /, ""));
  }
  return shown;
}

function button(label: string, className: string, onPress: () => void, disabled = false): HTMLButtonElement {
  const made = element("button", className, label) as HTMLButtonElement;
  made.type = "button";
  made.disabled = disabled;
  made.addEventListener("click", onPress);
  return made;
}

export function die(face: number, className: string): HTMLElement {
  const shown = element("span", `die ${className}`);
  for (let cell = 0; cell < 9; cell++) shown.append(element("i", PIPS[face]?.includes(cell) ? "pip" : ""));
  return shown;
}

function scoreboard(table: Table): HTMLElement {
  const board = element("section", "scores");
  board.append(element("h2", "", table.words.standings));
  const list = element("ol");
  for (const player of table.players ?? []) {
    const row = element("li", player.current ? "current" : player.active ? "" : "out");
    row.append(element("span", "name", (player.host && table.stage === "lobby" ? "👑 " : "") + player.name));
    if (table.stage !== "lobby") row.append(element("span", "points", player.team ?? player.points));
    if (player.chance) row.append(element("span", "chance", `📈 ${player.chance}`));
    list.append(row);
  }
  board.append(list);
  return board;
}

function countdown(deadline: number | null | undefined): string {
  if (!deadline) return "";
  const left = Math.max(0, Math.round(deadline - Date.now() / 1000));
  return `⏱️ ${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
}

function turn(table: Table, act: Act): HTMLElement[] {
  const drawn: HTMLElement[] = [];
  const current = table.players?.find((player) => player.current);
  const mine = table.moves.length > 0;
  const status = element("p", "status");
  status.append(element("b", "", mine ? table.words.your_turn : current?.name ?? ""));
  if (table.final_round) status.append(` · ${table.words.final_round}`);
  status.append(element("span", "countdown", countdown(table.deadline)));
  status.dataset.deadline = String(table.deadline ?? "");
  drawn.push(status);
  if (table.last_turn?.length) {
    const block = element("blockquote", "last-turn");
    table.last_turn.forEach((said) => block.append(line(said)));
    drawn.push(block);
  }
  const t = table.turn!;
  const dice = element("div", "dice");
  t.roll.forEach((face, position) => {
    const picked = t.picked.includes(position);
    const pressable = mine && table.moves.includes(picked ? "drop" : "pick");
    const shown = button("", `die-button${picked ? " picked" : ""}`, () => act(picked ? "drop" : "pick", position), !pressable);
    shown.setAttribute("aria-label", t.die_names[position]);
    shown.setAttribute("aria-pressed", String(picked));
    shown.append(die(face, ""));
    dice.append(shown);
  });
  drawn.push(dice);
  if (t.set_aside.length) {
    const aside = element("div", "aside");
    t.set_aside.forEach((face) => aside.append(die(face, "small")));
    aside.append(element("span", "", ` +${t.total}${t.hot_dice ? " 🔥" : ""}`));
    drawn.push(aside);
  }
  if (table.bank_blocked) drawn.push(line(`🔒 ${table.bank_blocked}`, "blocked"));
  if (mine && table.labels) {
    const controls = element("div", "controls");
    controls.append(button(table.labels.roll, "roll", () => act("roll"), !table.moves.includes("roll")));
    if (table.labels.piggyback) controls.append(button(table.labels.piggyback, "piggyback", () => act("piggyback"), !table.moves.includes("piggyback")));
    const bankAll = table.moves.includes("bank_all");
    const bank = button(table.labels.bank, "bank", () => act(bankAll ? "bank_all" : "bank"), !bankAll && !table.moves.includes("bank"));
    controls.append(bank);
    if (table.moves.includes("hint")) controls.append(button(`💡 ${table.words.hint}`, "hint", () => act("hint")));
    drawn.push(controls);
  } else {
    drawn.push(element("p", "watching", table.words.watching));
  }
  return drawn;
}

/** The whole table, redrawn from scratch: it is small, and each table is complete. */
export function draw(root: HTMLElement, table: Table, act: Act): void {
  const parts: HTMLElement[] = [];
  if (table.rules) parts.push(element("h1", "", `🎲 Farkle · ${table.rules} · ${table.target}`));
  if (table.stage === "none") {
    parts.push(element("p", "empty", table.words.no_game), button(table.words.new_game, "primary", () => act("new")));
  } else {
    parts.push(scoreboard(table));
    if (table.stage === "playing") parts.push(...turn(table, act));
    const lobbyMoves = ["join", "leave", "start", "rematch", "new"].filter((move) => table.moves.includes(move));
    if (lobbyMoves.length) {
      const controls = element("div", "controls");
      const word: Record<string, string> = { new: "new_game" };
      lobbyMoves.forEach((move) => controls.append(button(table.words[word[move] ?? move], move === "start" || move === "join" ? "primary" : "", () => act(move))));
      parts.push(controls);
    }
    if (table.recent?.length) {
      const recent = element("section", "recent");
      recent.append(element("h2", "", table.words.latest));
      table.recent.forEach((said) => recent.append(line(said)));
      parts.push(recent);
    }
  }
  root.replaceChildren(...parts);
}
