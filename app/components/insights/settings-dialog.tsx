// The Insights settings: the time zone of cameras in no site (saved as the browser's on the first visit) and how
// many days minute-by-minute counts are kept (hours and days are kept for good).
import { useId, useState } from "react";
import { insightsApi } from "../../lib/api/insights";
import { insightSettingsSchema, MAX_MINUTE_RETENTION_DAYS, MIN_MINUTE_RETENTION_DAYS, type InsightSettings } from "../../schemas/insights";
import { Button } from "../ui/button";
import { Dialog } from "../ui/dialog";
import { toast } from "../ui/toast-store";
import { DaysField, SelectField } from "./controls";
import { apiErrors, schemaErrors, type FormErrors } from "./form-errors";
import { timeZones } from "./site-dialog";

export function SettingsDialog({
  settings,
  open,
  onOpenChange,
  onSaved,
}: {
  settings: InsightSettings;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onSaved: (settings: InsightSettings) => void;
}) {
  const id = useId();
  const [timeZone, setTimeZone] = useState(settings.timeZone);
  const [days, setDays] = useState(String(settings.minuteRetentionDays));
  const [errors, setErrors] = useState<FormErrors>({});

  const save = async () => {
    const body = { timeZone, minuteRetentionDays: Number(days) };
    const checked = insightSettingsSchema.safeParse(body);
    if (!checked.success) return setErrors(schemaErrors(checked.error));
    setErrors({});
    try {
      const saved = await insightsApi.saveSettings(body);
      toast({ title: "Settings saved" });
      onSaved(saved);
      onOpenChange(false);
    } catch (error) {
      setErrors(apiErrors(error, "Couldn't save the settings"));
    }
  };

  return (
    <Dialog open={open} onOpenChange={onOpenChange} title="Insights settings">
      <form
        className="space-y-4"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <SelectField id={`${id}-tz`} label="Insights time zone (for cameras in no site)" value={timeZone} onChange={setTimeZone} error={errors.timeZone}>
          {timeZones().map((zone) => (
            <option key={zone} value={zone}>
              {zone}
            </option>
          ))}
        </SelectField>
        <DaysField
          id={`${id}-days`}
          label="Keep minute-by-minute counts for (days)"
          min={MIN_MINUTE_RETENTION_DAYS}
          max={MAX_MINUTE_RETENTION_DAYS}
          value={days}
          onChange={setDays}
          hint="Hourly and daily counts are kept for good."
          error={errors.minuteRetentionDays}
        />
        <div className="flex justify-end gap-2">
          <Button variant="ghost" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button type="submit">Save</Button>
        </div>
      </form>
    </Dialog>
  );
}
