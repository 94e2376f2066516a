// The side panel's AI tab (also the mobile "AI settings"): enable AI analysis and its interval, the API
// key, the AI calls spent per feature, story mode with speed, people counting with interval and range mode, and
// scoreboard mode.
import { AI_INTERVALS_S, COUNT_INTERVAL_S, STORY_SPEEDS, type StorySpeed } from "#app/studio/ai/ai-settings";
import { CommandToggle } from "../command-controls";
import { useAi, useStore } from "../studio-context";
import { AiCallsPanel } from "./ai-calls-panel";
import { ApiKeySection } from "./api-key-section";
import { LoopCallRate } from "./loop-call-rate";
import { ScoreboardSection } from "./scoreboard-section";
import { SecondsSlider, selectClass, ToggleRow } from "./toggle-row";

const SPEED_LABEL: Record<StorySpeed, string> = { slow: "Slow", medium: "Medium", fast: "Fast" };

function AnalysisSection() {
  const ai = useAi();
  const interval = useStore(ai.settings.store, (s) => s.intervalSeconds);
  return (
    <section className="space-y-3">
      <CommandToggle id="ai.captions" hint="Captions the live picture" />
      <LoopCallRate />
      <label className="grid gap-1 text-xs text-slate-300">
        Analysis interval
        <select className={selectClass} value={interval} onChange={(e) => ai.settings.update({ intervalSeconds: Number(e.target.value) })}>
          {AI_INTERVALS_S.map((s) => (
            <option key={s} value={s}>
              {s} s
            </option>
          ))}
        </select>
      </label>
    </section>
  );
}

function StorySection() {
  const ai = useAi();
  const speed = useStore(ai.settings.store, (s) => s.storySpeed);
  return (
    <section className="space-y-3">
      <CommandToggle id="ai.story" hint="Records captions and photos as a story" />
      <label className="grid gap-1 text-xs text-slate-300">
        Story speed
        <select className={selectClass} value={speed} onChange={(e) => ai.settings.update({ storySpeed: e.target.value as StorySpeed })}>
          {STORY_SPEEDS.map((s) => (
            <option key={s} value={s}>
              {SPEED_LABEL[s]}
            </option>
          ))}
        </select>
      </label>
    </section>
  );
}

function CountingSection() {
  const ai = useAi();
  const interval = useStore(ai.settings.store, (s) => s.countIntervalSeconds);
  const useRange = useStore(ai.settings.store, (s) => s.countUseRange);
  return (
    <section className="space-y-3">
      <CommandToggle id="ai.counting" hint="Counts people and saves each count; started while Count People Locally is on, it saves that count (no calls)" />
      <CommandToggle id="ai.counting.local" hint="A continuous count on this device: no key, no calls" />
      <SecondsSlider
        caption="Count interval"
        label="People count interval (seconds)"
        range={COUNT_INTERVAL_S}
        value={interval}
        onChange={(seconds) => ai.settings.update({ countIntervalSeconds: seconds })}
      />
      <ToggleRow label="Range estimates" hint="Moondream's low–high estimate for crowds" checked={useRange} onChange={(on) => ai.settings.update({ countUseRange: on })} />
    </section>
  );
}

export function AiTab() {
  const divider = <hr className="border-ink-700" />;
  return (
    <div className="space-y-5" data-testid="ai-tab">
      <AnalysisSection />
      {divider}
      <ApiKeySection />
      {divider}
      <AiCallsPanel />
      {divider}
      <StorySection />
      {divider}
      <CountingSection />
      {divider}
      <ScoreboardSection />
    </div>
  );
}
