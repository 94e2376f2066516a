// Help: the keyboard shortcuts, listed from the studio's commands.
import { Dialog } from "../ui/dialog";
import { useStudio } from "./studio-context";

export function HelpDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const { commands } = useStudio();
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title="Keyboard shortcuts" description="Shortcuts work anywhere in the studio except while you type in a field." size="sm">
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
        {commands.shortcuts().map(({ keys, description: action }) => (
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
