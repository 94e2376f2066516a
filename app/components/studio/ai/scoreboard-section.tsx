// AI tab → Scoreboard mode: sport, update interval, and the public live endpoints (JSON feed and the
// HTML overlay page for a browser source) with copy and open buttons — LOGIN_REQUIRED without a user.
import { SCOREBOARD_INTERVAL_S, SPORTS } from "#app/studio/ai/ai-settings";
import { scoreboardApi } from "#app/lib/api/scoreboard";
import type { Sport } from "#app/schemas/vision";
import { CopyIcon, ExternalLinkIcon } from "./ai-icons";
import { CommandToggle } from "../command-controls";
import { useAi, useStore } from "../studio-context";
import { SecondsSlider, selectClass } from "./toggle-row";

async function copyText(text: string): Promise<boolean> {
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // fall through to the selection copy (e.g. clipboard permission refused)
  }
  // Plain-HTTP deployments (a studio on a LAN address) have no async clipboard.
  const area = document.createElement("textarea");
  area.value = text;
  area.setAttribute("readonly", "");
  area.style.position = "fixed";
  area.style.opacity = "0";
  document.body.appendChild(area);
  area.select();
  try {
    return document.execCommand("copy");
  } catch {
    return false;
  } finally {
    area.remove();
  }
}

function EndpointLink({ label, url }: { label: string; url: string | null }) {
  const ai = useAi();
  return (
    <div className="space-y-1">
      <p className="text-xs text-slate-400">{label}</p>
      <div className="flex items-center gap-1">
        <code
          className="min-w-0 flex-1 truncate rounded bg-ink-950 px-2 py-1 text-[11px] text-slate-200"
          title={url ?? undefined}
          data-testid={`endpoint-${label.split(" ")[0]!.toLowerCase()}`}
        >
          {url ?? "LOGIN_REQUIRED"}
        </code>
        {url ? (
          <>
            <button
              type="button"
              aria-label={`Copy ${label}`}
              className="rounded p-1 text-slate-300 hover:bg-ink-800 hover:text-white"
              onClick={() =>
                void copyText(url).then((ok) =>
                  ai.notify.toast(ok ? { title: "Copied!", description: `${label} copied to the clipboard.` } : { title: "Copy failed", description: url, variant: "destructive" }),
                )
              }
            >
              <CopyIcon />
            </button>
            <a href={url} target="_blank" rel="noopener noreferrer" aria-label={`Open ${label}`} className="rounded p-1 text-slate-300 hover:bg-ink-800 hover:text-white">
              <ExternalLinkIcon />
            </a>
          </>
        ) : null}
      </div>
    </div>
  );
}

export function ScoreboardSection() {
  const ai = useAi();
  const sport = useStore(ai.settings.store, (s) => s.sport);
  const interval = useStore(ai.settings.store, (s) => s.scoreboardIntervalSeconds);
  const userId = useStore(ai.account.store, (s) => s.user?.id ?? null);
  const origin = typeof window === "undefined" ? "" : window.location.origin;
  const links = userId ? scoreboardApi.liveUrls(userId, origin) : null;
  return (
    <section className="space-y-3">
      <CommandToggle id="ai.scoreboard" hint="Reads the score from the picture and publishes it live" />
      <label className="grid gap-1 text-xs text-slate-300">
        Sport
        <select
          className={selectClass}
          value={sport}
          onChange={(e) => {
            ai.settings.update({ sport: e.target.value as Sport });
            ai.scoreboard.poke();
          }}
        >
          {SPORTS.map((s) => (
            <option key={s.value} value={s.value}>
              {s.label}
            </option>
          ))}
        </select>
      </label>
      <SecondsSlider
        caption="Update interval"
        label="Scoreboard update interval (seconds)"
        range={SCOREBOARD_INTERVAL_S}
        value={interval}
        onChange={(seconds) => ai.settings.update({ scoreboardIntervalSeconds: seconds })}
      />
      <div className="space-y-2 rounded-md border border-ink-700 p-2">
        <p className="text-xs font-medium text-slate-200">Public endpoints</p>
        <EndpointLink label="JSON endpoint" url={links?.json ?? null} />
        <EndpointLink label="HTML endpoint" url={links?.html ?? null} />
        <p className="text-[11px] text-slate-500">Add the HTML page as a 1920×1080 browser source in OBS; it updates within a second.</p>
      </div>
    </section>
  );
}
