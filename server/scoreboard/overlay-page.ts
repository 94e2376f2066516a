// live.html: the OBS browser-source overlay. A transparent 1920×1080 page with a score bug in the top-left
// corner, filled in on the server and kept current by Server-Sent Events. Values are set as text (escaped
// here, textContent in the script): team names come from the model and must never become markup.
import type { LiveScoreboard } from "#app/schemas/vision";

const FIELDS = [
  ["homeTeam", "home-team", "Home"],
  ["homeScore", "home-score", "–"],
  ["awayTeam", "away-team", "Away"],
  ["awayScore", "away-score", "–"],
  ["periodLabel", "period-label", "LIVE"],
] as const;

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

function field(live: LiveScoreboard, key: (typeof FIELDS)[number][0], empty: string): string {
  const value = live[key];
  return escapeHtml(value === null ? empty : String(value));
}

const STYLE = `
html, body { margin: 0; padding: 0; background: transparent; overflow: hidden; }
body { width: 1920px; height: 1080px; font-family: "Inter", "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
.bug { position: absolute; top: 48px; left: 64px; display: flex; height: 76px; border-radius: 10px; overflow: hidden;
  color: #fff; font-weight: 700; box-shadow: 0 8px 28px rgba(0, 0, 0, 0.35); }
.bug[hidden] { display: none; }
.team { display: flex; align-items: center; gap: 20px; padding: 0 24px; background: rgba(15, 23, 42, 0.92); }
.away { background: rgba(30, 41, 59, 0.92); }
.name { max-width: 360px; overflow: hidden; white-space: nowrap; text-overflow: ellipsis; text-transform: uppercase;
  font-size: 32px; letter-spacing: 0.03em; }
.score { min-width: 56px; text-align: center; font-size: 46px; font-variant-numeric: tabular-nums; }
.status { display: flex; align-items: center; padding: 0 24px; background: #dc2626; font-size: 28px; letter-spacing: 0.04em;
  white-space: nowrap; text-transform: uppercase; }
`;

// Static: no data is ever written into the script, so nothing from the model can run.
const SCRIPT = `
(() => {
  const userId = new URLSearchParams(location.search).get("userId") || "";
  const board = document.getElementById("scoreboard");
  const fields = ${JSON.stringify(FIELDS.map(([key, id, empty]) => ({ key, id, empty })))};
  let version = Number(document.body.dataset.version) || 0;
  function show(live) {
    if (typeof live.version !== "number" || live.version < version) return;
    version = live.version;
    document.body.dataset.version = String(version);
    for (const { key, id, empty } of fields) {
      const value = live[key];
      document.getElementById(id).textContent = value === null || value === undefined ? empty : String(value);
    }
    board.hidden = version === 0;
  }
  function connect() {
    const source = new EventSource("/api/scoreboard/events?userId=" + encodeURIComponent(userId));
    source.onopen = () => { document.body.dataset.connection = "open"; };
    source.onmessage = (event) => {
      try { show(JSON.parse(event.data)); } catch { /* not a reading */ }
    };
    source.onerror = () => {
      document.body.dataset.connection = "reconnecting";
      // The browser reconnects by itself after a dropped connection, but gives up when a server (or a proxy
      // in front of it) answers with an error status: then start over.
      if (source.readyState === EventSource.CLOSED) {
        source.close();
        setTimeout(connect, 2000);
      }
    };
  }
  connect();
})();
`;

export function overlayPage(live: LiveScoreboard, nonce: string): string {
  const [homeTeam, homeScore, awayTeam, awayScore, label] = FIELDS.map(([key, , empty]) => field(live, key, empty));
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=1920, height=1080">
<meta name="robots" content="noindex">
<link rel="icon" href="data:,">
<title>Live scoreboard</title>
<style>${STYLE}</style>
</head>
<body data-version="${live.version}">
<div class="bug" id="scoreboard"${live.version === 0 ? " hidden" : ""}>
<div class="team home"><span class="name" id="home-team">${homeTeam}</span><span class="score" id="home-score">${homeScore}</span></div>
<div class="team away"><span class="score" id="away-score">${awayScore}</span><span class="name" id="away-team">${awayTeam}</span></div>
<div class="status" id="period-label">${label}</div>
</div>
<script nonce="${escapeHtml(nonce)}">${SCRIPT}</script>
</body>
</html>
`;
}
