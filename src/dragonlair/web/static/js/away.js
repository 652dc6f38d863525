// The away policy as players see it: what a table does for a player who is away (stated
// in its description, in the lobby and at the table, before anyone joins), a table that
// every person has left (paused) or that ended abandoned, and what the table's bot played
// in your name while you were away. The rules themselves are the server's
// (dragonlair.web.table.clocks, docs/server.md "Away policy"); this only says them.
import { h, toast } from "./dom.js";
import { t } from "./i18n.js";

const SHOWN = 8; // the last moves played for you that the notice lists

/** A length of time in words: "45 s", "2 min", "1 h 30 min", "3 days". */
export function duration(secs) {
  const s = Math.max(0, Math.round(Number(secs) || 0));
  if (s < 60) return t("{n} s", { n: s });
  if (s < 3600) return t("{n} min", { n: Math.round(s / 60) });
  if (s < 86400) {
    const hrs = Math.floor(s / 3600);
    const min = Math.round((s % 3600) / 60);
    return min ? t("{h} h {m} min", { h: hrs, m: min }) : t("{n} h", { n: hrs });
  }
  const days = Math.round(s / 86400);
  return days === 1 ? t("1 day") : t("{n} days", { n: days });
}

/** The table's away policy in one phrase, for its description (at a turn-based table,
 * its pace and what happens to a move not made in time). */
export function awayTerm(settings) {
  if (settings.pace) {
    return settings.takeover
      ? t("turn-based, {pace} per move: the {level} bot plays a move not made in time", { pace: duration(settings.pace), level: t(settings.takeover) })
      : t("turn-based, {pace} per move: the table waits for a move not made in time", { pace: duration(settings.pace) });
  }
  if (!settings.takeover || settings.away === null || settings.away === undefined) {
    return t("an away player is waited for (no bot plays for them)");
  }
  return t("an away player's turns are played by the {level} bot once their {bank} time bank runs out", {
    level: t(settings.takeover), bank: duration(settings.away),
  });
}

/** A seat's away state for its chip at the table (empty: nothing to say); at a paused
 * table nobody plays for anyone. */
export function seatAway(s, settings, paused) {
  if (s.kind !== "human") return "";
  if (paused && !s.connected) return t("away");
  if (s.bot_playing) return t("away: the {level} bot plays", { level: t(settings.takeover || "") });
  if (!s.connected && s.arrived && s.bank !== null && s.bank !== undefined) {
    return t("away · {bank} of time bank left", { bank: duration(s.bank) });
  }
  return "";
}

/** The notices above the table: paused, abandoned, and the moves a bot played for you
 * (``page.playedFor``, a ``played_for_you`` message, until its player dismisses it). */
export function awayNotices(page, names) {
  const out = [];
  const info = page.info || {};
  const status = page.msg ? page.msg.status : info.status;
  const ended = page.vote && page.vote.ended;
  if (status === "abandoned") {
    out.push(h("div", { class: "notice away-notice", id: "abandoned", role: "status", dataset: { ended: ended || "left" } },
      ended === "vote" ? t("The players voted to end this game: it ended without a result and counts for nobody.")
        : ended === "timeout" ? t("Nobody moved at this table for a long time: it ended as abandoned, without a result, and counts for nobody.")
          : t("This table was abandoned: every player left it. It ended without a result and counts for nobody.")));
  } else if (status === "playing" && page.vote && !ended) {
    out.push(voteNotice(page, names));
  } else if (page.paused && status === "playing") {
    const when = page.abandons ? new Date(page.abandons * 1000).toLocaleString(document.documentElement.lang || undefined) : null;
    out.push(h("div", { class: "notice away-notice", id: "paused", role: "status" },
      t("Every player has left: the table is paused, and nobody plays for them until one comes back."),
      when ? ` ${t("If nobody comes back, it ends as abandoned on {when}.", { when })}` : ""));
  }
  const report = page.playedFor;
  if (report && report.moves && report.moves.length) {
    out.push(h("div", { class: "notice played-for", id: "played-for-you", role: "status" },
      h("strong", {}, report.deadline
        ? t("Your move's deadline passed, so the {level} bot played it for you:", { level: t(report.by || "") })
        : t("While you were away, the {level} bot played for you:", { level: t(report.by || "") })),
      h("ul", { class: "played-moves" }, report.moves.slice(-SHOWN).map((mv) => {
        // the action's name (its label up to the colon), the whole label on hover
        const label = page.actionLabel(mv.action, names);
        return h("li", { dataset: { move: String(mv.move) }, title: label },
          h("span", { class: "muted small" }, t("move {move}", { move: mv.move })), " ", label.split(": ")[0]);
      })),
      report.moves.length > SHOWN ? h("p", { class: "small muted" }, t("and {n} moves before these", { n: report.moves.length - SHOWN })) : null,
      h("button", { type: "button", class: "quiet small", id: "played-for-ok", onclick: () => { page.playedFor = null; page.render(); } }, t("OK"))));
  }
  return out;
}

/** The open vote to end a turn-based table (dragonlair.web.table.votes): who proposed it,
 * who still has to agree, and, for a voter who has not, the buttons to agree or refuse. */
function voteNotice(page, names) {
  const vote = page.vote;
  const seat = page.msg ? page.msg.seat : page.mySeat;
  const name = (i) => names[i] || t("Seat {n}", { n: i + 1 });
  const mine = seat !== null && seat !== undefined && vote.voters.includes(seat) && !vote.agreed.includes(seat);
  const others = vote.voters.filter((i) => i !== seat && !vote.agreed.includes(i));
  const send = (agree) => {
    if (!page.conn.send({ type: "end_vote", agree })) toast(t("Not connected: try again once reconnected."));
  };
  return h("div", { class: "notice vote-notice", id: "end-vote", role: "status" },
    h("p", {}, vote.by === seat
      ? t("You proposed to end this game: it would end without a result and count for nobody.")
      : t("{who} proposed to end this game: it would end without a result and count for nobody.", { who: name(vote.by) }),
    others.length ? ` ${t("Waiting for: {names}.", { names: others.map(name).join(", ") })}` : ""),
    mine ? h("p", { class: "actions" }, h("strong", {}, t("Do you agree to end it?")), " ",
      h("button", { type: "button", id: "vote-yes", class: "danger-button", onclick: () => send(true) }, t("Agree to end")),
      h("button", { type: "button", id: "vote-no", class: "primary", onclick: () => send(false) }, t("Keep playing"))) : null);
}

/** At a turn-based table in play: the button that proposes to end it, and when it ends by
 * itself if nobody moves (null elsewhere, or while a vote is open). */
export function endVoteControl(page) {
  const info = page.info;
  const seat = page.msg ? page.msg.seat : page.mySeat;
  if (!info || !info.settings || !info.settings.pace || !page.msg || page.msg.status !== "playing") return null;
  const me = seat === null || seat === undefined ? null : page.seats[seat];
  const when = page.abandons ? new Date(page.abandons * 1000).toLocaleString(document.documentElement.lang || undefined) : null;
  const idle = when ? h("p", { class: "small muted", id: "idle-end" }, t("If nobody moves by {when}, the table ends as abandoned.", { when })) : null;
  if (!me || me.kind !== "human" || (me.conceded !== null && me.conceded !== undefined) || page.vote) return idle;
  return h("div", { class: "end-vote-control" },
    h("button", { type: "button", id: "propose-end", onclick: () => {
      if (!page.conn.send({ type: "end_vote", agree: true })) toast(t("Not connected: try again once reconnected."));
    } }, t("Propose to end")), idle);
}
