// The people-count session viewer: stats tiles, the snapshots with inline count correction, CSV download.
import { format } from "date-fns";
import { useEffect, useState } from "react";
import type { CountSession, CountSnapshot } from "../../schemas/people-count";
import { Button } from "../ui/button";
import { Dialog } from "../ui/dialog";
import { DownloadIcon } from "../ui/icons";
import { toast } from "../ui/toast-store";
import { CountSourceBadge } from "./count-source-badge";
import { downloadText } from "./download";
import { useStore, useStudio } from "./studio-context";

export function snapshotCountLabel(s: Pick<CountSnapshot, "aiCount" | "aiCountMin" | "aiCountMax" | "correctedCount" | "correctedCountMin" | "correctedCountMax">): string {
  if (s.correctedCount !== null) return s.correctedCountMin !== null ? `${s.correctedCountMin}-${s.correctedCountMax}` : String(s.correctedCount);
  return s.aiCountMin !== null ? `${s.aiCountMin}-${s.aiCountMax}` : String(s.aiCount);
}

export function sessionAsCsv(session: CountSession, snapshots: CountSnapshot[]): string {
  const rows = [["captured_at", "ai_count", "ai_min", "ai_max", "corrected_count", "corrected_min", "corrected_max"]];
  for (const s of snapshots)
    rows.push([s.capturedAt, s.aiCount, s.aiCountMin ?? "", s.aiCountMax ?? "", s.correctedCount ?? "", s.correctedCountMin ?? "", s.correctedCountMax ?? ""].map(String));
  return `# ${session.title}\n${rows.map((r) => r.join(",")).join("\n")}\n`;
}

export function SessionViewer({ sessionId, onClose }: { sessionId: string; onClose: () => void }) {
  const studio = useStudio();
  const viewer = studio.viewers.session;
  const session = useStore(viewer.store, (s) => (s.sessionId === sessionId ? s.session : null));
  const snapshots = useStore(viewer.store, (s) => (s.sessionId === sessionId ? s.snapshots : null));
  useEffect(() => viewer.open(sessionId), [viewer, sessionId]);
  const correct = (snapshot: CountSnapshot, text: string) => viewer.correct(snapshot, text);

  const n = session?.snapshotCount ?? 0;
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title={session?.title ?? "People count session"} size="xl">
      {session ? (
        <div className="space-y-4">
          <div className="flex flex-wrap items-center justify-between gap-2 text-sm text-slate-400">
            <span>
              {format(new Date(session.createdAt), "PPpp")}
              {session.cameraName ? <span className="ml-2 rounded bg-ink-700 px-1.5 py-0.5 text-xs text-slate-200">{session.cameraName}</span> : null}{" "}
              <CountSourceBadge source={session.source} />
            </span>
            <Button
              variant="secondary"
              disabled={!snapshots}
              onClick={() => {
                downloadText(sessionAsCsv(session, snapshots ?? []), `${session.title.toLowerCase().replace(/[^a-z0-9]/g, "_")}.csv`, "text/csv");
                toast({ title: "Downloaded", description: "Session data has been downloaded" });
              }}
            >
              <DownloadIcon /> Download
            </Button>
          </div>
          <dl className="grid grid-cols-2 gap-2 sm:grid-cols-4" data-testid="session-stats">
            <Tile label="Average" value={session.averageCount ?? "–"} />
            <Tile label="Minimum" value={session.minCount ?? "–"} />
            <Tile label="Maximum" value={session.maxCount ?? "–"} />
            <Tile label={n === 1 ? "Snapshot" : "Snapshots"} value={n} />
          </dl>
          {snapshots === null ? (
            <p className="text-sm text-slate-400">Loading snapshots...</p>
          ) : snapshots.length === 0 ? (
            <p className="text-sm text-slate-400">No snapshots recorded yet</p>
          ) : (
            <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3 md:grid-cols-4">
              {snapshots.map((snapshot) => (
                <SnapshotCard key={snapshot.id} snapshot={snapshot} onCorrect={(text) => correct(snapshot, text)} />
              ))}
            </ul>
          )}
        </div>
      ) : (
        <p className="text-sm text-slate-400">Loading session...</p>
      )}
    </Dialog>
  );
}

function Tile({ label, value }: { label: string; value: string | number }) {
  return (
    <div className="rounded-md border border-ink-700 bg-ink-950 p-3">
      <dt className="text-xs text-slate-400">{label}</dt>
      <dd className="text-xl font-semibold text-white">{value}</dd>
    </div>
  );
}

function SnapshotCard({ snapshot, onCorrect }: { snapshot: CountSnapshot; onCorrect: (text: string) => Promise<boolean> }) {
  const [draft, setDraft] = useState(snapshotCountLabel(snapshot));
  useEffect(() => setDraft(snapshotCountLabel(snapshot)), [snapshot]);
  return (
    <li className="overflow-hidden rounded-md border border-ink-700 bg-ink-950" data-testid="snapshot">
      <img src={snapshot.thumbnailUrl} alt="" width={320} height={180} className="aspect-video w-full object-cover" />
      <div className="space-y-1 p-2">
        <form
          className="flex items-center gap-1"
          onSubmit={(e) => {
            e.preventDefault();
            if (draft.trim() !== snapshotCountLabel(snapshot)) void onCorrect(draft);
          }}
        >
          <input
            aria-label="Count"
            value={draft}
            placeholder="5 or 8-12"
            onChange={(e) => setDraft(e.target.value)}
            className="w-20 rounded border border-ink-700 bg-ink-900 px-1.5 py-0.5 text-sm"
          />
          <span className="text-xs text-slate-400">people</span>
          {snapshot.correctedCount !== null ? <span className="ml-auto rounded bg-amber-600/80 px-1 text-[10px] font-semibold text-white">Corrected</span> : null}
        </form>
        <p className="text-xs text-slate-500">{format(new Date(snapshot.capturedAt), "h:mm:ss a")}</p>
      </div>
    </li>
  );
}
