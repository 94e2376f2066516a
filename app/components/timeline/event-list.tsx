// The timeline's events, newest first: type, class, line or zone, camera, time, thumbnail and description (with the
// searched words marked). The selected row is the keyboard's (↑/↓, j/k; Enter opens it).
import { useEffect, useRef } from "react";
import type { TimelineEvent } from "../../schemas/timeline";
import { TYPE_COLOURS, dateTimeOf, typeLabel } from "./format";

export function EventList({
  events,
  selectedId,
  onSelect,
  onOpen,
}: {
  events: readonly TimelineEvent[];
  selectedId: string | null;
  onSelect: (id: string) => void;
  onOpen: (event: TimelineEvent) => void;
}) {
  const listRef = useRef<HTMLOListElement | null>(null);
  // The selected row stays in view as the keyboard moves it, and takes the focus (Enter is then its own), unless the
  // person is typing in a field.
  useEffect(() => {
    const row = listRef.current?.querySelector<HTMLElement>('[aria-current="true"]');
    if (!row) return;
    row.scrollIntoView({ block: "nearest" });
    const active = document.activeElement;
    if (!(active instanceof HTMLInputElement || active instanceof HTMLSelectElement || active instanceof HTMLTextAreaElement)) row.focus({ preventScroll: true });
  }, [selectedId]);
  return (
    <ol ref={listRef} aria-label="Events" className="divide-y divide-ink-800 overflow-hidden rounded-lg border border-ink-700 bg-ink-900">
      {events.map((event) => {
        const selected = event.id === selectedId;
        return (
          <li
            key={event.id}
            aria-current={selected ? "true" : undefined}
            data-testid="timeline-event"
            tabIndex={-1}
            onClick={() => onSelect(event.id)}
            onDoubleClick={() => onOpen(event)}
            className={`flex cursor-pointer gap-3 p-3 focus:outline-none ${selected ? "bg-ink-800 ring-1 ring-brand-400 ring-inset" : "hover:bg-ink-800/60"}`}
          >
            {event.thumbnailUrl ? (
              <img src={event.thumbnailUrl} alt="" loading="lazy" className="h-14 w-20 shrink-0 rounded object-cover" />
            ) : (
              <div aria-hidden className="h-14 w-20 shrink-0 rounded bg-ink-950" />
            )}
            <div className="min-w-0 flex-1 space-y-1">
              <div className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm">
                <span className="inline-flex items-center gap-1.5 font-medium text-white">
                  <span aria-hidden className={`h-2 w-2 rounded-full ${TYPE_COLOURS[event.type]}`} />
                  {typeLabel(event.type)}
                </span>
                {event.label ? <span className="rounded bg-ink-950 px-1.5 text-xs text-slate-200">{event.label}</span> : null}
                {event.targetName ? <span className="text-xs text-slate-300">{event.targetName}</span> : null}
                <span className="text-xs text-slate-400">{event.cameraName ?? "No camera"}</span>
                <time dateTime={event.occurredAt} className="ml-auto text-xs whitespace-nowrap text-slate-400">
                  {dateTimeOf(event.occurredAt)}
                </time>
              </div>
              {event.highlight ? (
                <p className="line-clamp-2 text-sm text-slate-300">
                  {event.highlight.map((part, index) =>
                    part.match ? (
                      <mark key={index} className="rounded bg-amber-300/30 px-0.5 text-amber-100">
                        {part.text}
                      </mark>
                    ) : (
                      <span key={index}>{part.text}</span>
                    ),
                  )}
                </p>
              ) : event.description ? (
                <p className="line-clamp-2 text-sm text-slate-300">{event.description}</p>
              ) : null}
              {event.photoId ? (
                <button
                  type="button"
                  onClick={(e) => {
                    e.stopPropagation();
                    onSelect(event.id);
                    onOpen(event);
                  }}
                  className="text-brand-300 hover:text-brand-200 text-xs font-medium"
                >
                  Jump to the photo
                </button>
              ) : null}
            </div>
          </li>
        );
      })}
    </ol>
  );
}
