// The lobby API (docs/server.md): JSON over HTTP; every refusal has
// {"error": {"code", "message"}}, which becomes an ApiError with that message.

import { t } from "./i18n.js";

export class ApiError extends Error {
  constructor(code, message, status) {
    super(message);
    this.code = code;
    this.status = status;
  }
}

async function call(method, url, body) {
  let r;
  try {
    r = await fetch(url, {
      method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (e) {
    throw new ApiError("network", t("the server cannot be reached: {error}", { error: e.message }), 0);
  }
  let data = null;
  try { data = await r.json(); } catch { /* not JSON */ }
  if (!r.ok) {
    const err = (data && data.error) || {};
    throw new ApiError(err.code || "http_" + r.status, err.message || r.statusText, r.status);
  }
  return data;
}

export const getJSON = (url) => call("GET", url);
export const postJSON = (url, body) => call("POST", url, body);

const cache = new Map();

/** GET once per page: the catalog and rules never change for a table. */
export function getOnce(url) {
  if (!cache.has(url)) {
    const p = getJSON(url);
    cache.set(url, p);
    p.catch(() => cache.delete(url));
  }
  return cache.get(url);
}
