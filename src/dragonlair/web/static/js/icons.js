// Small SVG icons for the symbols printed on cards, so they look the same whatever fonts
// a device has.
import { s } from "./dom.js";

const PATHS = {
  shield: "M8 1 L14 3.5 C14 9 11.5 12.5 8 15 C4.5 12.5 2 9 2 3.5 Z",
  tool: "M10.5 1.5a3.5 3.5 0 0 0-3.3 4.6L1.8 11.5a1.4 1.4 0 0 0 2 2l5.4-5.4a3.5 3.5 0 0 0 4.6-3.3l-2 2-2-.6-.6-2z",
  damage: "M8 0.5 L9.6 5.2 L14.6 3.5 L11.3 7.6 L15.5 10.5 L10.4 10.6 L10.8 15.5 L8 11.5 L5.2 15.5 L5.6 10.6 L0.5 10.5 L4.7 7.6 L1.4 3.5 L6.4 5.2 Z",
};

/** An icon by name (shield, tool, damage, crosshair) with a tooltip. */
export function icon(name, title) {
  const kids = [s("title", {}, title || name)];
  if (name === "crosshair") {
    kids.push(
      s("circle", { cx: 8, cy: 8, r: 5.5, fill: "none", stroke: "currentColor", "stroke-width": 1.8 }),
      s("path", { d: "M8 0.5v5M8 10.5v5M0.5 8h5M10.5 8h5", stroke: "currentColor", "stroke-width": 1.8 }),
    );
  } else {
    kids.push(s("path", { d: PATHS[name], fill: "currentColor" }));
  }
  return s("svg", { class: `icon ${name}`, viewBox: "0 0 16 16", width: 16, height: 16, role: "img", "aria-label": title || name }, kids);
}
