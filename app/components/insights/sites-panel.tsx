// Sites and services: the user's sites (add, edit, delete), the chosen site's windows (services, opening hours,
// one-off events, closed days) and its attendance.
import { useCallback, useEffect, useId, useState } from "react";
import { insightsApi } from "../../lib/api/insights";
import type { Camera } from "../../schemas/cameras";
import type { Attendance, InsightWindow, Site } from "../../schemas/insights";
import type { Line } from "../../schemas/local-vision";
import { Button } from "../ui/button";
import { toast } from "../ui/toast-store";
import { AttendanceView } from "./attendance-view";
import { SelectField } from "./controls";
import { toastError } from "./form-errors";
import { weekdayNames } from "./format";
import { SiteDialog } from "./site-dialog";
import { WindowDialog } from "./window-dialog";

export function SitesPanel({ sites, cameras, lines, onSitesChanged }: { sites: Site[]; cameras: Camera[]; lines: Line[]; onSitesChanged: () => Promise<void> }) {
  const id = useId();
  const [chosenId, setChosenId] = useState<string | null>(null);
  const [editing, setEditing] = useState<Site | "new" | null>(null);
  const site = sites.find((s) => s.id === chosenId) ?? sites[0] ?? null;

  const remove = async (target: Site) => {
    if (!window.confirm(`Delete ${target.name} and its services? Its counts stay.`)) return;
    try {
      await insightsApi.removeSite(target.id);
      toast({ title: "Site deleted", description: target.name });
      await onSitesChanged();
    } catch (error) {
      toastError(error, "Couldn't delete the site");
    }
  };

  return (
    <div className="space-y-4" data-testid="sites-panel">
      <div className="flex flex-wrap items-end gap-3">
        {sites.length > 0 ? (
          <div className="min-w-48">
            <SelectField id={`${id}-site`} label="Site" value={site?.id ?? ""} onChange={setChosenId}>
              {sites.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.name}
                </option>
              ))}
            </SelectField>
          </div>
        ) : (
          <p className="text-sm text-slate-300">No sites yet: a site groups cameras and their doors under one time zone, with its services or opening hours.</p>
        )}
        <Button onClick={() => setEditing("new")}>Add site</Button>
        {site ? (
          <>
            <Button variant="secondary" onClick={() => setEditing(site)}>
              Edit site
            </Button>
            <Button variant="ghost" onClick={() => void remove(site)}>
              Delete site
            </Button>
          </>
        ) : null}
      </div>
      {site ? (
        <p className="text-xs text-slate-400">
          {site.timeZone} · day starts {String(site.dayStartsAt).padStart(2, "0")}:00 · {site.cameraIds.length} {site.cameraIds.length === 1 ? "camera" : "cameras"}
          {site.capacity ? ` · capacity ${site.capacity}` : ""}
        </p>
      ) : null}
      {site ? <SiteWindows key={site.id} site={site} /> : null}
      {editing ? (
        <SiteDialog
          site={editing === "new" ? null : editing}
          cameras={cameras}
          lines={lines}
          open
          onOpenChange={(open) => !open && setEditing(null)}
          onSaved={(saved) => {
            setChosenId(saved.id);
            void onSitesChanged();
          }}
        />
      ) : null}
    </div>
  );
}

function SiteWindows({ site }: { site: Site }) {
  const [windows, setWindows] = useState<InsightWindow[] | null>(null);
  const [attendance, setAttendance] = useState<Attendance | null>(null);
  const [editing, setEditing] = useState<InsightWindow | "new" | null>(null);

  const load = useCallback(async () => {
    try {
      const [list, figures] = await Promise.all([insightsApi.windows(site.id), insightsApi.attendance(site.id)]);
      setWindows(list);
      setAttendance(figures);
    } catch (error) {
      toastError(error, "Couldn't load the site");
    }
  }, [site.id]);
  useEffect(() => {
    void load();
  }, [load]);

  const remove = async (target: InsightWindow) => {
    try {
      await insightsApi.removeWindow(target.id);
      toast({ title: "Deleted", description: target.name });
      await load();
    } catch (error) {
      toastError(error, "Couldn't delete");
    }
  };

  return (
    <div className="space-y-4">
      <section aria-labelledby="windows-heading" className="rounded-xl border border-ink-700 bg-ink-900 p-4">
        <div className="mb-2 flex items-center justify-between gap-2">
          <h2 id="windows-heading" className="text-base font-semibold text-white">
            Services and opening hours
          </h2>
          <Button variant="secondary" onClick={() => setEditing("new")}>
            Add service or hours
          </Button>
        </div>
        {windows === null ? <p className="text-sm text-slate-400">Loading...</p> : null}
        {windows?.length === 0 ? <p className="text-sm text-slate-400">None yet: add &ldquo;Sunday 10:00–11:30&rdquo; or &ldquo;weekdays 09:00–18:00&rdquo;.</p> : null}
        <ul className="divide-y divide-ink-800" data-testid="windows">
          {windows?.map((w) => (
            <li key={w.id} className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm text-slate-200">
              <span>
                <span className="font-medium text-white">{w.name}</span> <span className="text-slate-400">{describeWindow(w)}</span>
              </span>
              <span className="flex gap-1">
                <Button variant="ghost" className="px-2 py-1" aria-label={`Edit ${w.name}`} onClick={() => setEditing(w)}>
                  Edit
                </Button>
                <Button variant="ghost" className="px-2 py-1" aria-label={`Delete ${w.name}`} onClick={() => void remove(w)}>
                  Delete
                </Button>
              </span>
            </li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="attendance-heading" className="space-y-2">
        <h2 id="attendance-heading" className="text-base font-semibold text-white">
          Attendance
        </h2>
        {attendance ? <AttendanceView attendance={attendance} /> : null}
      </section>
      {editing ? (
        <WindowDialog siteId={site.id} window={editing === "new" ? null : editing} open onOpenChange={(open) => !open && setEditing(null)} onSaved={() => void load()} />
      ) : null}
    </div>
  );
}

function describeWindow(w: InsightWindow): string {
  const times = `${w.startsAt.slice(0, 5)}–${w.endsAt.slice(0, 5)}`;
  if (w.kind === "closed") return `closed on ${w.date}`;
  if (w.kind === "once") return `on ${w.date}, ${times}`;
  const names = weekdayNames();
  const days = [1, 2, 3, 4, 5, 6, 0].filter((d) => w.weekdays.includes(d)).map((d) => names[(d + 6) % 7]);
  return `every ${days.join(", ")}, ${times}`;
}
