// A small Markdown renderer for the players' rules: headings, paragraphs, bulleted and
// numbered lists (one level of nesting), block quotes, pipe tables, **bold**, *italic* and
// `code`.
// It builds elements with h(), never HTML strings, so nothing in a rules file can become
// markup or script: whatever the text holds is shown as text.
import { h } from "./dom.js";

/** Inline spans: **bold**, *italic* or _italic_, `code`. */
export function inline(text) {
  const out = [];
  const re = /(\*\*([^*]+)\*\*|__([^_]+)__|`([^`]+)`|\*([^*\s][^*]*)\*|(?<![A-Za-z0-9])_([^_\s][^_]*)_(?![A-Za-z0-9]))/g;
  let last = 0;
  for (const m of text.matchAll(re)) {
    if (m.index > last) out.push(text.slice(last, m.index));
    if (m[2] !== undefined || m[3] !== undefined) out.push(h("strong", {}, inline(m[2] ?? m[3])));
    else if (m[4] !== undefined) out.push(h("code", {}, m[4]));
    else out.push(h("em", {}, inline(m[5] ?? m[6])));
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

const ITEM = /^(\s*)([-*+]|\d+[.)])\s+(.*)$/;

/** Markdown text -> a list of block elements. */
export function markdown(text) {
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  const blocks = [];
  let para = [];
  let list = null; // {el, ordered, indent, sub}
  let quote = null;
  const flushPara = () => {
    if (para.length) blocks.push(h("p", {}, inline(para.join(" "))));
    para = [];
  };
  const flushList = () => { list = null; };
  const flushQuote = () => { quote = null; };
  // a table: "| a | b |" rows, the first the header when a "|---|---|" row follows it
  let rows = [];
  const cells = (row) => row.replace(/^\|/, "").replace(/\|$/, "").split("|").map((c) => c.trim());
  const flushTable = () => {
    if (!rows.length) return;
    const sep = rows.length > 1 && /^\|?\s*:?-{3,}/.test(rows[1]);
    const head = sep ? rows[0] : null;
    const body = sep ? rows.slice(2) : rows;
    blocks.push(h("table", { class: "md-table" },
      head ? h("thead", {}, h("tr", {}, cells(head).map((c) => h("th", {}, inline(c))))) : null,
      h("tbody", {}, body.map((r) => h("tr", {}, cells(r).map((c) => h("td", {}, inline(c))))))));
    rows = [];
  };
  for (const raw of lines) {
    const line = raw.replace(/\s+$/, "");
    if (/^\|.*\|$/.test(line)) { flushPara(); flushList(); flushQuote(); rows.push(line); continue; }
    flushTable();
    if (!line.trim()) { flushPara(); flushList(); flushQuote(); continue; }
    const head = line.match(/^(#{1,6})\s+(.*?)\s*#*$/);
    if (head) {
      flushPara(); flushList(); flushQuote();
      const level = Math.min(6, head[1].length + 1); // the dialog's own title is the h2
      blocks.push(h(`h${Math.max(3, level)}`, {}, inline(head[2])));
      continue;
    }
    const item = line.match(ITEM);
    if (item) {
      flushPara(); flushQuote();
      const ordered = /\d/.test(item[2]);
      const indent = item[1].length;
      if (list && indent > list.indent) {
        const parentLi = list.el.lastElementChild;
        if (!list.sub || list.sub.ordered !== ordered) {
          list.sub = { el: h(ordered ? "ol" : "ul"), ordered, indent };
          parentLi.append(list.sub.el);
        }
        list.sub.el.append(h("li", {}, inline(item[3])));
        continue;
      }
      if (!list || list.ordered !== ordered) {
        list = { el: h(ordered ? "ol" : "ul"), ordered, indent, sub: null };
        blocks.push(list.el);
      }
      list.sub = null;
      list.el.append(h("li", {}, inline(item[3])));
      continue;
    }
    if (/^>\s?/.test(line)) {
      flushPara(); flushList();
      if (!quote) { quote = h("blockquote"); blocks.push(quote); }
      quote.append(h("p", {}, inline(line.replace(/^>\s?/, ""))));
      continue;
    }
    if (list && /^\s+\S/.test(line)) {
      // a continuation line of the current item
      const target = (list.sub ? list.sub.el : list.el).lastElementChild;
      target.append(" ", ...inline(line.trim()));
      continue;
    }
    flushList(); flushQuote();
    para.push(line.trim());
  }
  flushPara();
  flushTable();
  return blocks;
}
