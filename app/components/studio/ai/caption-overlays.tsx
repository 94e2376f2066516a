// The caption family over the picture — people counting over story mode over the plain "AI Vision"
// caption (one at a time; see captionOverlayKind) — each with its own Stop command.
import { useEffect, useState, type ReactNode } from "react";
import { STORY_WORD_DELAY_MS } from "#app/studio/ai/ai-settings";
import { captionOverlayKind } from "#app/studio/ai/modes";
import { captionWords, STORY_CROSSFADE_MS } from "#app/studio/ai/story-timing";
import { CountSourceBadge } from "../count-source-badge";
import { useAi, useCommand, useStore } from "../studio-context";

function Panel({ title, badge, stopCommand, children, testId }: { title: string; badge?: ReactNode; stopCommand: string; children: ReactNode; testId: string }) {
  const stop = useCommand(stopCommand);
  return (
    // Clicks here must not reach the preview (they would be taken as click-to-move).
    <div
      className="pointer-events-auto absolute inset-x-3 bottom-3 mx-auto max-w-2xl rounded-lg bg-black/75 p-3 text-white shadow-lg backdrop-blur-sm"
      data-testid={testId}
      onClick={(e) => e.stopPropagation()}
    >
      <div className="mb-1 flex items-center justify-between gap-2">
        <p className="text-brand-300 text-xs font-semibold tracking-wide uppercase">
          {title} {badge}
        </p>
        <button type="button" onClick={() => stop.run()} className="rounded bg-red-600 px-2 py-0.5 text-xs font-medium text-white hover:bg-red-700">
          {stop.command.label}
        </button>
      </div>
      {children}
    </div>
  );
}

const waiting = "text-sm italic text-slate-300";

function CaptionOverlay() {
  const ai = useAi();
  const caption = useStore(ai.captions.store, (s) => s.caption);
  const analyzing = useStore(ai.captions.store, (s) => s.analyzing);
  return (
    <Panel title="AI Vision" stopCommand="ai.captions.stop" testId="ai-caption-overlay">
      {caption ? (
        <p className="text-sm leading-snug" data-testid="ai-caption">
          {caption}
        </p>
      ) : (
        <p className={waiting}>{analyzing ? "Analyzing frame..." : "Waiting for first analysis..."}</p>
      )}
    </Panel>
  );
}

/** Reveals a caption word by word at the story speed. */
function RevealingCaption({ text, wordDelayMs }: { text: string; wordDelayMs: number }) {
  const words = captionWords(text);
  const [shown, setShown] = useState(1);
  useEffect(() => {
    setShown(1);
    const timer = setInterval(() => setShown((n) => (n >= words.length ? n : n + 1)), wordDelayMs);
    return () => clearInterval(timer);
  }, [text, wordDelayMs, words.length]);
  return <>{words.slice(0, shown).join(" ")}</>;
}

/** The current story caption fades in over the previous one, which fades out (400 ms). */
function StoryText({ text, seq, wordDelayMs }: { text: string; seq: number; wordDelayMs: number }) {
  const [layers, setLayers] = useState<Array<{ text: string; seq: number; visible: boolean }>>([{ text, seq, visible: true }]);
  useEffect(() => {
    setLayers((current) => (current.some((l) => l.seq === seq) ? current : [...current.map((l) => ({ ...l, visible: false })), { text, seq, visible: false }]));
    // One frame at opacity 0, then the transition to 1 can run.
    const show = requestAnimationFrame(() => setLayers((current) => current.map((l) => (l.seq === seq ? { ...l, visible: true } : l))));
    const prune = setTimeout(() => setLayers((current) => current.filter((l) => l.seq === seq)), STORY_CROSSFADE_MS);
    return () => {
      cancelAnimationFrame(show);
      clearTimeout(prune);
    };
  }, [text, seq]);
  return (
    <div className="grid">
      {layers.map((layer) => (
        <p
          key={layer.seq}
          className="col-start-1 row-start-1 text-base leading-snug"
          style={{ opacity: layer.visible ? 1 : 0, transition: `opacity ${STORY_CROSSFADE_MS}ms ease` }}
          data-testid={layer.seq === seq ? "story-caption" : undefined}
          aria-hidden={layer.seq === seq ? undefined : true}
        >
          <RevealingCaption text={layer.text} wordDelayMs={wordDelayMs} />
        </p>
      ))}
    </div>
  );
}

function StoryOverlay() {
  const ai = useAi();
  const caption = useStore(ai.captions.store, (s) => s.storyCaption);
  const seq = useStore(ai.captions.store, (s) => s.storyCaptionSeq);
  const analyzing = useStore(ai.captions.store, (s) => s.analyzing);
  const speed = useStore(ai.settings.store, (s) => s.storySpeed);
  return (
    <Panel title="Story Mode" stopCommand="ai.story.stop" testId="story-overlay">
      {caption ? (
        <StoryText text={caption} seq={seq} wordDelayMs={STORY_WORD_DELAY_MS[speed]} />
      ) : (
        <p className={waiting}>{analyzing ? "Analyzing scene..." : "Waiting for story..."}</p>
      )}
    </Panel>
  );
}

function CountingOverlay() {
  const ai = useAi();
  const result = useStore(ai.counting.store, (s) => s.result);
  const session = useStore(ai.counting.store, (s) => s.session);
  const analyzing = useStore(ai.counting.store, (s) => s.analyzing);
  const source = useStore(ai.counting.store, (s) => s.source);
  const range = result && result.min !== null && result.max !== null ? result : null;
  return (
    <Panel title="People Counting" badge={source ? <CountSourceBadge source={source} /> : null} stopCommand="ai.counting.stop" testId="counting-overlay">
      {result ? (
        <div className="flex items-end justify-between gap-4">
          <div>
            <p className="text-4xl font-bold tabular-nums" data-testid="people-count">
              {range ? `${range.min}–${range.max}` : result.count}
            </p>
            <p className="text-sm text-slate-200">People Detected{range ? <span className="ml-1 text-amber-300">(Estimate)</span> : null}</p>
          </div>
          {session ? (
            <dl className="grid grid-cols-3 gap-3 text-center text-xs" data-testid="count-stats">
              <div>
                <dt className="text-slate-400">Average</dt>
                <dd className="font-semibold tabular-nums">{session.averageCount === null ? "–" : Math.round(session.averageCount * 10) / 10}</dd>
              </div>
              <div>
                <dt className="text-slate-400">Range</dt>
                <dd className="font-semibold tabular-nums">{session.minCount === null || session.maxCount === null ? "–" : `${session.minCount}–${session.maxCount}`}</dd>
              </div>
              <div>
                <dt className="text-slate-400">Snapshots</dt>
                <dd className="font-semibold tabular-nums">{session.snapshotCount}</dd>
              </div>
            </dl>
          ) : null}
        </div>
      ) : (
        <p className={waiting}>{analyzing ? "Counting people..." : "Waiting for first count..."}</p>
      )}
    </Panel>
  );
}

export function CaptionOverlays() {
  const ai = useAi();
  const counting = useStore(ai.counting.store, (s) => s.active);
  const story = useStore(ai.captions.store, (s) => s.storyMode);
  const aiEnabled = useStore(ai.captions.store, (s) => s.enabled);
  switch (captionOverlayKind({ counting, story, captions: aiEnabled })) {
    case "counting":
      return <CountingOverlay />;
    case "story":
      return <StoryOverlay />;
    case "caption":
      return <CaptionOverlay />;
    case null:
      return null;
  }
}
