// One event opened: its photo at full size with Moondream's description and a download, or its details when it has
// no photo. Escape closes it (the dialog's own).
import type { TimelineEvent } from "../../schemas/timeline";
import { Dialog } from "../ui/dialog";
import { dateTimeOf, typeLabel } from "./format";

export function EventDialog({ event, onClose }: { event: TimelineEvent; onClose: () => void }) {
  const where = [event.label, event.targetName, event.cameraName].filter(Boolean).join(" · ");
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title={typeLabel(event.type)} description={`${where ? `${where} — ` : ""}${dateTimeOf(event.occurredAt)}`} size="xl">
      <div className="space-y-3">
        {event.imageUrl ? <img src={event.imageUrl} alt={event.description ?? `${typeLabel(event.type)} photo`} className="max-h-[65vh] w-full rounded-md object-contain" /> : null}
        {event.description ? <p className="text-sm text-slate-200">{event.description}</p> : null}
        {!event.imageUrl && !event.description ? <p className="text-sm text-slate-400">No photo or description for this event.</p> : null}
        {event.imageUrl ? (
          <a
            href={event.imageUrl}
            download={`framewise-${event.type.replace(".", "-")}-${event.occurredAt.slice(0, 19).replace(/:/g, "")}.jpg`}
            className="inline-flex rounded-md bg-brand-500 px-3 py-2 text-sm font-medium text-white hover:bg-brand-400"
          >
            Download
          </a>
        ) : null}
      </div>
    </Dialog>
  );
}
