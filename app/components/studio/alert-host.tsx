// Shows the engine's alerts (the spec's capture and webcam alerts) as an accessible modal.
import { alertStore } from "../../studio/notifier";
import { Button } from "../ui/button";
import { Dialog } from "../ui/dialog";
import { useStore } from "./studio-context";

export function AlertHost() {
  const alert = useStore(alertStore, (s) => s.alert);
  return (
    <Dialog open={alert !== null} onOpenChange={(open) => !open && alertStore.set({ alert: null })} title={alert?.title ?? ""} role="alertdialog" size="sm">
      <p className="text-sm whitespace-pre-line text-slate-200" data-testid="alert-message">
        {alert?.message}
      </p>
      <div className="mt-5 flex justify-end">
        <Button onClick={() => alertStore.set({ alert: null })}>OK</Button>
      </div>
    </Dialog>
  );
}
