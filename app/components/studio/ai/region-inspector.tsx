// A line's or zone's inspector, opened from its entry in the Zones & Lines list (so it goes wherever the list is
// shown, phone included): what it sees now (tracks near it, with class, side and distance), its last crossings or
// entries (each with a thumbnail of who it was), and the near-misses it did not count with the reason why. Read from the scene's insights (insights.ts).
import { useId, useState, type ReactNode } from "react";
import { insightStatus, missText, type NearTrack } from "#app/studio/local-vision/insights";
import type { RegionKind } from "#app/studio/local-vision/regions-controller";
import { thumbnailKey } from "#app/studio/local-vision/thumbnails";
import { Button } from "../../ui/button";
import { useAi, useStore } from "../studio-context";

/** A frame time (performance.now() milliseconds) as the local time of day. */
const clock = (at: number) => new Date(performance.timeOrigin + at).toLocaleTimeString();
const where: Record<NearTrack["where"], string> = { in: "in side", out: "out side", "on the line": "on the line", inside: "inside", outside: "outside" };

export function RegionInspector({ kind, id, name }: { kind: RegionKind; id: string; name: string }) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  return (
    <div className="grid gap-2">
      <Button
        variant="ghost"
        className="justify-self-start px-2.5 py-1 text-xs"
        aria-expanded={open}
        aria-controls={panelId}
        aria-label={`${open ? "Hide" : "Inspect"} what ${name} sees`}
        onClick={() => setOpen(!open)}
      >
        {open ? "Hide inspector" : "Inspect"}
      </Button>
      {open ? <InspectorBody id={panelId} kind={kind} regionId={id} name={name} /> : null}
    </div>
  );
}

function InspectorBody({ id, kind, regionId, name }: { id: string; kind: RegionKind; regionId: string; name: string }) {
  const { localVision } = useAi();
  const insight = useStore(localVision.store, (s) => s.insights[regionId]);
  const running = useStore(localVision.store, (s) => (s.enabled || s.countingPeople) && s.status === "running");
  const status = insightStatus(insight, running);
  const near = running ? (insight?.near ?? []) : [];
  const happenings = [...(insight?.happenings ?? [])].reverse();
  const thumbnails = useStore(localVision.store, (s) => s.thumbnails);
  const misses = [...(insight?.misses ?? [])].reverse();
  return (
    <section id={id} className="grid gap-2 rounded bg-ink-950 p-2 text-xs text-slate-300" aria-label={`What ${name} sees`} data-testid="region-inspector">
      {status ? (
        <p className="text-amber-300" data-testid="inspector-status" aria-live="polite">
          {status}
        </p>
      ) : null}
      <InspectorList title="Near it now" empty="No tracks near it." testId="inspector-near">
        {near.map((t) => (
          <li key={t.trackId}>
            {t.label} #{t.trackId} · {where[t.where]} · {Math.round(t.distance * 100)} % of the picture away{t.counted ? "" : " · class not counted"}
          </li>
        ))}
      </InspectorList>
      <InspectorList title={kind === "line" ? "Last crossings" : "Last entries and exits"} empty="None since this tab opened." testId="inspector-happenings">
        {happenings.map((h) => (
          <li key={`${h.at}-${h.trackId}-${h.what}`} className="flex items-center gap-2">
            <Thumbnail url={thumbnails[thumbnailKey(regionId, h.at, h.trackId)]} alt={`${h.label} #${h.trackId}, ${h.what}`} />
            <span>
              {clock(h.at)} · {h.what} · {h.label} #{h.trackId}
            </span>
          </li>
        ))}
      </InspectorList>
      <InspectorList title="Not counted" empty="No near-misses since this tab opened." testId="inspector-misses">
        {misses.map((m) => (
          <li key={`${m.at}-${m.trackId}-${m.reason.kind}`}>
            {clock(m.at)} · {m.label} #{m.trackId}: {missText(kind, m)}
          </li>
        ))}
      </InspectorList>
    </section>
  );
}

/** Who was counted, cropped from the frame it happened in; a blank square while it is being made. */
function Thumbnail({ url, alt }: { url: string | undefined; alt: string }) {
  return url ? (
    <img src={url} alt={alt} className="h-12 w-auto max-w-16 rounded object-cover" data-testid="inspector-thumbnail" />
  ) : (
    <span className="h-12 w-9 shrink-0 rounded bg-ink-800" aria-hidden="true" />
  );
}

function InspectorList({ title, empty, testId, children }: { title: string; empty: string; testId: string; children: ReactNode[] }) {
  return (
    <div className="grid gap-1" data-testid={testId}>
      <h4 className="font-medium text-white">{title}</h4>
      {children.length === 0 ? <p className="text-slate-500">{empty}</p> : <ul className="grid gap-0.5 tabular-nums">{children}</ul>}
    </div>
  );
}
