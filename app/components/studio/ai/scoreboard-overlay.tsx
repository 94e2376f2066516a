// The sports scoreboard over the top of the picture while scoreboard mode is on, with the period label
// rules of the public overlay (one home: app/lib/scoreboard.ts).
import { scoreboardLabel } from "#app/lib/scoreboard";
import { useAi, useStore } from "../studio-context";

export function ScoreboardOverlay() {
  const ai = useAi();
  const enabled = useStore(ai.scoreboard.store, (s) => s.enabled);
  const reading = useStore(ai.scoreboard.store, (s) => s.reading);
  if (!enabled) return null;
  if (!reading) {
    return (
      <div className="absolute top-3 left-1/2 -translate-x-1/2 rounded-md bg-black/70 px-3 py-1 text-xs text-slate-300" data-testid="scoreboard-overlay">
        Reading scoreboard...
      </div>
    );
  }
  const { scoreboard: s, sport } = reading;
  const score = (value: number | null) => (value === null ? "–" : value);
  return (
    <div className="absolute top-3 left-1/2 -translate-x-1/2 overflow-hidden rounded-md bg-black/80 text-white shadow-lg" data-testid="scoreboard-overlay">
      <div className="flex items-center gap-3 px-3 py-1.5 text-sm font-semibold">
        <span data-testid="scoreboard-home">{s.homeTeam ?? "Home"}</span>
        <span className="text-lg tabular-nums" data-testid="scoreboard-score">
          {score(s.homeScore)} – {score(s.awayScore)}
        </span>
        <span data-testid="scoreboard-away">{s.awayTeam ?? "Away"}</span>
      </div>
      <p className="bg-brand-600 px-3 py-0.5 text-center text-xs font-medium tracking-wide uppercase" data-testid="scoreboard-period">
        {scoreboardLabel(sport, s.period, s.timeRemaining)}
      </p>
    </div>
  );
}
