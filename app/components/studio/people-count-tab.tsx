// The People Count tab (the desktop's bottom bar and the phone's Photos & Stories sheet): sessions, the
// "Currently Counting" indicator, and the session viewer.
import { format } from "date-fns";
import { useEffect, useState } from "react";
import type { CountSession } from "../../schemas/people-count";
import { CountSourceBadge } from "./count-source-badge";
import { SessionViewer } from "./session-viewer";
import { useAi, useStudio, useStore } from "./studio-context";

export function PeopleCountTab() {
  const studio = useStudio();
  const ai = useAi();
  // "Currently Counting" shows while an active session exists and counting is on.
  const countingSessionId = useStore(ai.counting.store, (s) => (s.active ? s.sessionId : null));
  const sessions = useStore(studio.library.store, (s) => s.sessions);
  const loaded = useStore(studio.library.store, (s) => s.sessionsLoaded);
  const [open, setOpen] = useState<CountSession | null>(null);

  useEffect(() => {
    void studio.library.loadSessions();
  }, [studio]);

  return (
    <div className="h-full overflow-x-auto p-2">
      {countingSessionId ? (
        <div className="mb-2 flex items-center justify-between rounded-md border border-emerald-800 bg-emerald-950/50 px-3 py-2 text-sm">
          <span className="font-medium text-emerald-200">Currently Counting</span>
          <button type="button" onClick={() => studio.commands.run("ai.counting.stop")} className="rounded bg-red-600 px-2 py-1 text-xs font-medium text-white hover:bg-red-700">
            Stop
          </button>
        </div>
      ) : null}
      {!loaded ? (
        <p className="text-sm text-slate-400">Loading sessions...</p>
      ) : sessions.length === 0 ? (
        <div className="text-sm text-slate-400">
          <p>No people counting sessions yet</p>
          <p className="text-xs text-slate-500">Enable People Counting in the AI panel to start tracking</p>
        </div>
      ) : (
        <ul className="flex gap-2" aria-label="People count sessions">
          {sessions.map((session) => (
            <li key={session.id}>
              <button
                type="button"
                onClick={() => setOpen(session)}
                className="w-56 rounded-md border border-ink-700 bg-ink-900 p-2 text-left hover:border-brand-400"
                data-testid="session-card"
              >
                <p className="truncate text-sm font-medium text-white">{session.title}</p>
                <p className="text-xs text-slate-400">{format(new Date(session.createdAt), "MMM d, yyyy")}</p>
                <p className="mt-1 text-xs text-slate-300">
                  Avg {session.averageCount ?? "–"} · {session.snapshotCount} {session.snapshotCount === 1 ? "snapshot" : "snapshots"} <CountSourceBadge source={session.source} />
                  {session.isActive ? <span className="ml-2 rounded bg-emerald-600 px-1 text-[10px] font-semibold text-white">Active</span> : null}
                </p>
              </button>
            </li>
          ))}
        </ul>
      )}
      {open ? <SessionViewer sessionId={open.id} onClose={() => setOpen(null)} /> : null}
    </div>
  );
}
