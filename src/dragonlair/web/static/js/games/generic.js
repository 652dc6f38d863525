// A table drawn as a plain list of its view's fields: for a game without its own board.
import { h } from "../dom.js";

const CORE = new Set(["game", "players", "seat", "phase", "move", "to_act", "over", "result", "choosing", "my_choice", "window"]);

function show(v) {
  if (v === null || v === undefined) return "–";
  if (Array.isArray(v)) return `[${v.map(show).join(", ")}]`;
  if (typeof v === "object") return `{${Object.entries(v).map(([k, x]) => `${k}: ${show(x)}`).join(", ")}}`;
  return String(v);
}

export function board(ctx) {
  return h("dl", { class: "generic" },
    Object.entries(ctx.view).filter(([k]) => !CORE.has(k)).map(([k, v]) => [h("dt", {}, k.replace(/_/g, " ")), h("dd", {}, show(v))]));
}
