// "E-mail reports": the current view e-mailed weekly (Mondays, last week) or monthly (the 1st, last month) to chosen
// addresses, the summary in the mail and the PDF attached; the list of scheduled reports with Stop.
import { useCallback, useEffect, useId, useState } from "react";
import { insightsApi } from "../../lib/api/insights";
import { scheduleInputSchema, type ReportFilter, type Schedule } from "../../schemas/insights";
import { Button } from "../ui/button";
import { Dialog } from "../ui/dialog";
import { toast } from "../ui/toast-store";
import { FieldError, SelectField, TextField, inputClass } from "./controls";
import { apiErrors, schemaErrors, toastError, type FormErrors } from "./form-errors";
import { formatInstant } from "./format";

export function ScheduleDialog({ open, onOpenChange, view, title }: { open: boolean; onOpenChange: (open: boolean) => void; view: ReportFilter; title: string }) {
  const id = useId();
  const [schedules, setSchedules] = useState<Schedule[] | null>(null);
  const [name, setName] = useState(title);
  const [frequency, setFrequency] = useState<"weekly" | "monthly">("weekly");
  const [recipients, setRecipients] = useState("");
  const [errors, setErrors] = useState<FormErrors>({});

  const load = useCallback(async () => {
    try {
      setSchedules(await insightsApi.schedules());
    } catch (error) {
      toastError(error, "Couldn't load the e-mail reports");
    }
  }, []);
  useEffect(() => {
    if (open) void load();
  }, [open, load]);

  const create = async () => {
    const body = {
      name,
      frequency,
      recipients: recipients
        .split(/[\s,;]+/)
        .map((r) => r.trim())
        .filter(Boolean),
      view,
    };
    const checked = scheduleInputSchema.safeParse(body);
    if (!checked.success) return setErrors(schemaErrors(checked.error));
    setErrors({});
    try {
      const schedule = await insightsApi.createSchedule(body);
      toast({
        title: "E-mail report scheduled",
        description: `${schedule.name}: next on ${formatInstant(schedule.nextRunAt, Intl.DateTimeFormat().resolvedOptions().timeZone, "day")}`,
      });
      setRecipients("");
      await load();
    } catch (error) {
      setErrors(apiErrors(error, "Couldn't schedule the report"));
    }
  };

  const stop = async (schedule: Schedule) => {
    try {
      await insightsApi.removeSchedule(schedule.id);
      toast({ title: "E-mail report stopped", description: schedule.name });
      await load();
    } catch (error) {
      toastError(error, "Couldn't stop the report");
    }
  };

  return (
    <Dialog open={open} onOpenChange={onOpenChange} title="E-mail reports" description="This view, with its PDF, sent at 07:00 in the report's time zone." size="lg">
      <form
        className="grid gap-3 sm:grid-cols-2"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void create();
        }}
      >
        <TextField id={`${id}-name`} label="Name" value={name} onChange={setName} error={errors.name} />
        <SelectField id={`${id}-frequency`} label="Send" value={frequency} onChange={(v) => setFrequency(v as "weekly" | "monthly")} error={errors.frequency}>
          <option value="weekly">Weekly (Mondays, last week)</option>
          <option value="monthly">Monthly (the 1st, last month)</option>
        </SelectField>
        <div className="space-y-1 sm:col-span-2">
          <label htmlFor={`${id}-recipients`} className="block text-xs font-medium text-slate-300">
            Recipients (e-mail addresses, separated by commas)
          </label>
          <textarea
            id={`${id}-recipients`}
            rows={2}
            className={inputClass}
            value={recipients}
            onChange={(e) => setRecipients(e.target.value)}
            aria-invalid={errors.recipients ? true : undefined}
            aria-describedby={errors.recipients ? `${id}-recipients-error` : undefined}
          />
          <FieldError id={`${id}-recipients-error`} message={errors.recipients} />
        </div>
        <div className="flex justify-end sm:col-span-2">
          <Button type="submit">Schedule</Button>
        </div>
      </form>
      <h3 className="mt-5 mb-2 text-sm font-semibold text-white">Scheduled</h3>
      {schedules?.length === 0 ? <p className="text-sm text-slate-400">No e-mail reports yet.</p> : null}
      <ul className="divide-y divide-ink-800" data-testid="schedules">
        {schedules?.map((schedule) => (
          <li key={schedule.id} className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm text-slate-200">
            <span className="min-w-0">
              <span className="font-medium text-white">{schedule.name}</span>{" "}
              <span className="text-slate-400">
                {schedule.frequency} to {schedule.recipients.join(", ")}
              </span>
            </span>
            <Button variant="ghost" className="px-2 py-1" aria-label={`Stop ${schedule.name}`} onClick={() => void stop(schedule)}>
              Stop
            </Button>
          </li>
        ))}
      </ul>
    </Dialog>
  );
}
