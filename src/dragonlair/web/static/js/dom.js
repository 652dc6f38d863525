// Small DOM helpers: build elements from data, never from HTML strings, so nothing a
// player types (a name) or a server sends can become markup.

import { t } from "./i18n.js";

/** h("div", {class: "x", onclick: f}, child, "text", [more]) -> Element */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
    else if (k === "class") el.className = Array.isArray(v) ? v.filter(Boolean).join(" ") : v;
    else if (k === "dataset") Object.assign(el.dataset, v);
    else if (k === "style" && typeof v === "object") Object.assign(el.style, v);
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  append(el, children);
  return el;
}

const SVG_NS = "http://www.w3.org/2000/svg";

/** The same for SVG elements. */
export function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
    else if (k === "class") el.setAttribute("class", Array.isArray(v) ? v.filter(Boolean).join(" ") : v);
    else el.setAttribute(k, String(v));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

/** Put a board's style sheet (its module's `style`) in the page once, between the page's
 * app.css and app-end.css: a board's rules override the page's cards, and a phone's rules
 * (app-end.css) override the board's. Resolves when the sheet has loaded, or failed to (the
 * board is drawn either way), so the first drawing is already styled. */
export function boardStyle(href) {
  const url = new URL(href, location.href).href;
  const found = [...document.querySelectorAll('link[rel="stylesheet"]')].find((l) => l.href === url);
  if (found) return Promise.resolve(found);
  const link = h("link", { rel: "stylesheet", href: url });
  const loaded = new Promise((resolve) => {
    link.addEventListener("load", () => resolve(link));
    link.addEventListener("error", () => resolve(link));
  });
  const end = document.querySelector('link[rel="stylesheet"][data-after-boards]');
  if (end) end.before(link);
  else document.head.append(link);
  return loaded;
}

/** Replace an element's children. */
export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

let toastTimer = null;

/** A short message at the bottom of the screen (errors from the server). */
export function toast(text, ms = 5000) {
  const el = document.getElementById("toast");
  if (!el) return;
  el.textContent = text;
  el.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { el.hidden = true; }, ms);
}

/** Copy text to the clipboard, falling back to selecting it for the user. */
export async function copyText(text, fallbackInput) {
  try {
    await navigator.clipboard.writeText(text);
    toast(t("Link copied."), 2000);
  } catch {
    if (fallbackInput) { fallbackInput.focus(); fallbackInput.select(); }
    toast(t("Press Ctrl+C to copy the selected link."), 3000);
  }
}
