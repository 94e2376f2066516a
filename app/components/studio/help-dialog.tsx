// Help: the keyboard shortcuts.
import { Dialog } from "../ui/dialog";

export const SHORTCUTS: Array<[string, string]> = [
  ["F", "Toggle fullscreen"],
  ["Arrow keys", "Move camera (PTZ)"],
  ["+ / -", "Zoom in / out"],
  ["?", "Show this help"],
];

export function HelpDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title="Keyboard shortcuts" description="Shortcuts work anywhere in the studio except while you type in a field." size="sm">
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
        {SHORTCUTS.map(([keys, action]) => (
          <div key={keys} className="contents">
            <dt>
              <kbd className="rounded border border-ink-700 bg-ink-800 px-1.5 py-0.5 font-mono text-xs">{keys}</kbd>
            </dt>
            <dd className="text-slate-300">{action}</dd>
          </div>
        ))}
      </dl>
    </Dialog>
  );
}
