// The page: signs in, reads the table from the bot's socket (each new table the game-events stream
// publishes), sends moves, and rolls the dice on screen when a new roll arrives.
import { draw, type Table } from "./draw";
import { signIn, type Session } from "./signin";

const root = document.getElementById("table")!;
const ROLL_MS = 450;
let shown: Table | null = null;
let session: Session;
let said: HTMLElement | null = null;

function say(text: string): void {
  said?.remove();
  said = document.createElement("p");
  said.className = "said";
  said.setAttribute("role", "status");
  said.textContent = text;
  document.body.append(said);
  const gone = said;
  setTimeout(() => gone.remove(), 6000);
}

function newRoll(before: Table | null, after: Table): boolean {
  if (!after.turn?.roll.length) return false;
  if (!before?.turn || before.game_id !== after.game_id) return true;
  return before.turn.roll.join() !== after.turn.roll.join() || before.current !== after.current || before.turn.total !== after.turn.total && before.turn.picked.length === 0;
}

function roll(): void {
  document.querySelectorAll<HTMLElement>(".dice .die").forEach((die, index) => {
    die.animate(
      [
        { transform: "translateY(-18px) rotate(-200deg) scale(0.7)", opacity: 0.3 },
        { transform: "translateY(4px) rotate(20deg) scale(1.05)", opacity: 1, offset: 0.7 },
        { transform: "none", opacity: 1 },
      ],
      { duration: ROLL_MS, delay: index * 30, easing: "ease-out" },
    );
  });
}

function show(table: Table): void {
  const sameGame = shown?.game_id === table.game_id;
  if (sameGame && shown?.version != null && table.version != null && table.version < shown.version) return;
  const rolled = newRoll(shown, table);
  shown = table;
  document.documentElement.lang = table.language;
  draw(root, table, act);
  if (rolled && !matchMedia("(prefers-reduced-motion: reduce)").matches) roll();
}

async function act(action: string, arg?: number): Promise<void> {
  const answer = await fetch(`api/instances/${session.instanceId}/actions`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${session.token}` },
    body: JSON.stringify({ action, arg: arg ?? null, version: shown?.version ?? null }),
  });
  const body = await answer.json();
  if (body.table) show(body.table);
  if (body.error) say(body.error);
  if (body.hint) say(body.hint);
}

function live(delay = 500): void {
  const socket = new WebSocket(new URL(`api/instances/${session.instanceId}/live`, location.href.replace(/^http/, "ws")));
  socket.onopen = () => socket.send(JSON.stringify({ token: session.token }));
  socket.onmessage = (message) => {
    const body = JSON.parse(message.data);
    if (body.table) show(body.table);
    if (body.error) say(body.error);
    delay = 500;
  };
  socket.onclose = () => {
    if (shown) say(shown.words.offline);
    setTimeout(() => live(Math.min(delay * 2, 10000)), delay);
  };
}

setInterval(() => {
  root.querySelectorAll<HTMLElement>(".status").forEach((status) => {
    const deadline = Number(status.dataset.deadline);
    const left = Math.max(0, Math.round(deadline - Date.now() / 1000));
    const clock = status.querySelector(".countdown");
    if (deadline && clock) clock.textContent = `⏱️ ${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
  });
}, 1000);

signIn()
  .then((signedIn) => {
    session = signedIn;
    live();
  })
  .catch((error: Error) => say(error.message));
