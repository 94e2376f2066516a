// Who counted a people-count session: "Local" (the on-device detector, no calls) or "Moondream" (a call a snapshot).
import type { CountSource } from "../../schemas/people-count";

const LABEL: Record<CountSource, { text: string; title: string; className: string }> = {
  local: { text: "Local", title: "Counted on this device: no AI calls", className: "bg-sky-700 text-white" },
  moondream: { text: "Moondream", title: "Counted by Moondream: one AI call a snapshot", className: "bg-ink-700 text-slate-200" },
};

export function CountSourceBadge({ source }: { source: CountSource }) {
  const label = LABEL[source];
  return (
    <span className={`rounded px-1 text-[10px] font-semibold ${label.className}`} title={label.title} data-testid="count-source">
      {label.text}
    </span>
  );
}
