// The calls per minute the running AI loops will spend (from their intervals), shown next to the AI
// switches; without the user's own key, also how long the free calls left would last at that pace.
import { FREE_SHARED_CALLS } from "#app/schemas/vision";
import { useAi, useStore } from "../studio-context";

export function LoopCallRate() {
  const ai = useAi();
  // Subscribed to every store the figure depends on; the figure itself is computed by the engine.
  useStore(ai.captions.store, (s) => `${s.enabled}${s.storyId}`);
  useStore(ai.counting.store, (s) => `${s.active}${s.source}`);
  useStore(ai.scoreboard.store, (s) => s.enabled);
  useStore(ai.detection.store, (s) => `${s.box.enabled}${s.box.boxDetectionInterval}${s.point.enabled}${s.point.interval}${s.box.boxQuery}${s.point.object}`);
  useStore(ai.assistant.store, (s) => `${s.intervalMode}${s.settings.intervalSeconds}`);
  useStore(ai.settings.store, (s) => `${s.intervalSeconds}${s.storySpeed}${s.countIntervalSeconds}${s.scoreboardIntervalSeconds}`);
  const user = useStore(ai.account.store, (s) => s.user);
  const perMinute = ai.callsPerMinute();
  const left = user && !user.hasMoondreamApiKey ? Math.max(0, FREE_SHARED_CALLS - user.sharedKeyUsageCount) : null;
  return (
    <p className="text-xs text-slate-400" data-testid="loop-call-rate" aria-live="polite">
      AI loops: {perMinute ? `≈ ${perMinute} calls/min` : "no calls running"}
      {left !== null && perMinute > 0 ? ` · ${left} free calls left ≈ ${Math.max(1, Math.round(left / perMinute))} min` : ""}
    </p>
  );
}
