// How long the timeline keeps events (days); older ones are deleted within the hour.
import { useId, useState } from "react";
import { timelineApi } from "../../lib/api/timeline";
import { MAX_TIMELINE_RETENTION_DAYS, MIN_TIMELINE_RETENTION_DAYS, timelineSettingsSchema, type TimelineSettings } from "../../schemas/timeline";
import { Button } from "../ui/button";
import { Dialog } from "../ui/dialog";
import { toast } from "../ui/toast-store";
import { DaysField } from "../insights/controls";
import { apiErrors, schemaErrors, type FormErrors } from "../insights/form-errors";

export function RetentionDialog({ settings, onClose, onSaved }: { settings: TimelineSettings; onClose: () => void; onSaved: (settings: TimelineSettings) => void }) {
  const id = useId();
  const [days, setDays] = useState(String(settings.retentionDays));
  const [errors, setErrors] = useState<FormErrors>({});

  const save = async () => {
    const body = { retentionDays: Number(days) };
    const checked = timelineSettingsSchema.safeParse(body);
    if (!checked.success) return setErrors(schemaErrors(checked.error));
    setErrors({});
    try {
      onSaved(await timelineApi.saveSettings(body));
      toast({ title: "Settings saved" });
      onClose();
    } catch (error) {
      setErrors(apiErrors(error, "Couldn't save the settings"));
    }
  };

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title="Timeline settings">
      <form
        className="space-y-4"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <DaysField
          id={`${id}-days`}
          label="Keep events for (days)"
          min={MIN_TIMELINE_RETENTION_DAYS}
          max={MAX_TIMELINE_RETENTION_DAYS}
          value={days}
          onChange={setDays}
          error={errors.retentionDays}
        />
        <div className="flex justify-end gap-2">
          <Button type="button" variant="ghost" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit">Save</Button>
        </div>
      </form>
    </Dialog>
  );
}
