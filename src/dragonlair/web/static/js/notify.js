// "Your turn" for a player whose tab is in the background: the browser's Notifications API
// (https://developer.mozilla.org/docs/Web/API/Notifications_API), as well as the tab's
// title and the optional sound (table.js). Asked for only when the player ticks the
// setting (browsers refuse a permission prompt that no click led to), remembered in this
// browser, and shown only while the page is hidden: a visible page says it itself.

const KEY = "dragonlair:notify";

/** Whether this browser can show notifications at all. */
export function canNotify() {
  return typeof window.Notification === "function";
}

/** The player's choice, and whether the browser still allows it. */
export function notifyOn() {
  try {
    return canNotify() && localStorage.getItem(KEY) === "1" && Notification.permission === "granted";
  } catch { return false; }
}

/** Turn notifications on (asking the browser's permission) or off; whether they are on. */
export async function setNotify(on) {
  if (!on || !canNotify()) {
    try { localStorage.setItem(KEY, "0"); } catch { /* not kept */ }
    return false;
  }
  let permission = Notification.permission;
  if (permission === "default") permission = await Notification.requestPermission();
  const granted = permission === "granted";
  try { localStorage.setItem(KEY, granted ? "1" : "0"); } catch { /* not kept */ }
  return granted;
}

/** Tell the player it is their turn, if they asked for it and the page is hidden; one
 * notification per table (``tag``): a newer one replaces it. */
export function notifyTurn(title, body, tag) {
  if (!document.hidden || !notifyOn()) return null;
  try {
    const n = new Notification(title, { body, tag, lang: document.documentElement.lang || "en" });
    n.onclick = () => { window.focus(); n.close(); };
    return n;
  } catch { return null; } // some browsers allow notifications only from a service worker
}
