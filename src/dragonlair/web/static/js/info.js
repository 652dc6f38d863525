// A card's words (what its symbols do) on hover, on keyboard focus, and on touch: a tap on
// a card that is not a button, or a long press on one that is (a plain tap plays it).
// Elements say what to show in data-info; the tip is one element, filled with text only.

let tip = null;
let pressTimer = null;
let suppressClick = false;
let quiet = false;

function show(el) {
  const text = el.dataset.info;
  if (!text) return;
  tip = tip || Object.assign(document.createElement("div"), { className: "info-tip", role: "tooltip", id: "info-tip" });
  if (!tip.isConnected) document.body.append(tip);
  tip.textContent = text;
  tip.hidden = false;
  const r = el.getBoundingClientRect();
  const w = tip.offsetWidth;
  const hgt = tip.offsetHeight;
  let x = Math.min(Math.max(8, r.left + r.width / 2 - w / 2), window.innerWidth - w - 8);
  let y = r.top - hgt - 8;
  if (y < 8) y = Math.min(r.bottom + 8, window.innerHeight - hgt - 8);
  tip.style.left = `${x}px`;
  tip.style.top = `${y}px`;
}

/** Move keyboard focus to el without showing its words: the page keeps focus on the
 * choices after every redraw, and a tip over the board at the start of every turn would
 * hide what the player needs to see. A tip shows when the player moves focus themselves. */
export function focusQuietly(el, options) {
  quiet = true;
  try { el.focus(options); } finally { quiet = false; }
}

export function hideInfo() {
  if (tip) tip.hidden = true;
}

const target = (ev) => ev.target instanceof Element ? ev.target.closest("[data-info]") : null;

/** Install the listeners (once per page). */
export function installInfo() {
  document.addEventListener("pointerover", (ev) => {
    if (ev.pointerType !== "mouse") return;
    const el = target(ev);
    if (el) show(el); else hideInfo();
  });
  document.addEventListener("focusin", (ev) => {
    const el = target(ev);
    if (el && !quiet && el.matches(":focus-visible")) show(el); else hideInfo();
  });
  document.addEventListener("scroll", hideInfo, { passive: true, capture: true });
  document.addEventListener("pointerdown", (ev) => {
    if (ev.pointerType === "mouse") return;
    const el = target(ev);
    clearTimeout(pressTimer);
    if (!el) { hideInfo(); return; }
    if (el.tagName !== "BUTTON") { show(el); return; }
    pressTimer = setTimeout(() => { show(el); suppressClick = true; }, 450);
  });
  const cancel = () => clearTimeout(pressTimer);
  document.addEventListener("pointerup", cancel);
  document.addEventListener("pointercancel", cancel);
  document.addEventListener("click", (ev) => {
    if (suppressClick) {
      suppressClick = false;
      ev.preventDefault();
      ev.stopPropagation();
    }
  }, true);
  document.addEventListener("contextmenu", (ev) => { if (target(ev)) ev.preventDefault(); });
}
