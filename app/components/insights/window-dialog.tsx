// Add or change a site's window: a weekly service or opening hours (weekdays and times), a one-off event (a date and
// times), or a closed day (a holiday: no weekly window that date).
import { useId, useState } from "react";
import { insightsApi } from "../../lib/api/insights";
import { WINDOW_KINDS, windowInputSchema, type InsightWindow } from "../../schemas/insights";
import { Button } from "../ui/button";
import { Dialog } from "../ui/dialog";
import { toast } from "../ui/toast-store";
import { FieldError, inputClass } from "./controls";
import { apiErrors, schemaErrors, type FormErrors } from "./form-errors";
import { weekdayNames } from "./format";

type Kind = (typeof WINDOW_KINDS)[number];
const KIND_LABELS: Record<Kind, string> = { weekly: "Every week", once: "One-off event", closed: "Closed day" };
/** Monday first, as people read a week; the API numbers 0 = Sunday. */
const WEEK = [1, 2, 3, 4, 5, 6, 0];

export function WindowDialog({
  siteId,
  window: existing,
  open,
  onOpenChange,
  onSaved,
}: {
  siteId: string;
  window: InsightWindow | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onSaved: () => void;
}) {
  const id = useId();
  const [name, setName] = useState(existing?.name ?? "");
  const [kind, setKind] = useState<Kind>(existing?.kind ?? "weekly");
  const [weekdays, setWeekdays] = useState<number[]>(existing?.weekdays ?? []);
  const [startsAt, setStartsAt] = useState(existing?.startsAt.slice(0, 5) ?? "10:00");
  const [endsAt, setEndsAt] = useState(existing?.endsAt.slice(0, 5) ?? "11:30");
  const [date, setDate] = useState(existing?.date ?? "");
  const [errors, setErrors] = useState<FormErrors>({});
  const [saving, setSaving] = useState(false);
  const names = weekdayNames("long");

  const save = async () => {
    const body = { name, kind, weekdays: kind === "weekly" ? weekdays : [], startsAt, endsAt, date: kind === "weekly" ? null : date || null };
    const checked = windowInputSchema.safeParse(body);
    if (!checked.success) return setErrors(schemaErrors(checked.error));
    setErrors({});
    setSaving(true);
    try {
      if (existing) await insightsApi.updateWindow(existing.id, body);
      else await insightsApi.createWindow(siteId, body);
      toast({ title: existing ? "Saved" : "Added", description: name });
      onSaved();
      onOpenChange(false);
    } catch (error) {
      setErrors(apiErrors(error, "Couldn't save"));
    } finally {
      setSaving(false);
    }
  };

  const input = (field: string, label: string, props: React.InputHTMLAttributes<HTMLInputElement>) => (
    <div className="space-y-1">
      <label htmlFor={`${id}-${field}`} className="block text-sm font-medium text-slate-200">
        {label}
      </label>
      <input
        id={`${id}-${field}`}
        className={inputClass}
        aria-invalid={errors[field] ? true : undefined}
        aria-describedby={errors[field] ? `${id}-${field}-error` : undefined}
        {...props}
      />
      <FieldError id={`${id}-${field}-error`} message={errors[field]} />
    </div>
  );

  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={existing ? `Edit ${existing.name}` : "Add service or hours"} description="Times are the site's local time.">
      <form
        className="space-y-4"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        {input("name", "Name", { value: name, onChange: (e) => setName(e.target.value), placeholder: "Sunday service" })}
        <fieldset className="space-y-1">
          <legend className="text-sm font-medium text-slate-200">Kind</legend>
          <div className="flex flex-wrap gap-3">
            {WINDOW_KINDS.map((k) => (
              <label key={k} className="flex items-center gap-2 text-sm text-slate-200">
                <input type="radio" name={`${id}-kind`} value={k} checked={kind === k} onChange={() => setKind(k)} />
                {KIND_LABELS[k]}
              </label>
            ))}
          </div>
        </fieldset>
        {kind === "weekly" ? (
          <fieldset className="space-y-1" aria-describedby={errors.weekdays ? `${id}-weekdays-error` : undefined}>
            <legend className="text-sm font-medium text-slate-200">Days</legend>
            <div className="flex flex-wrap gap-3">
              {WEEK.map((day) => (
                <label key={day} className="flex items-center gap-1.5 text-sm text-slate-200">
                  <input
                    type="checkbox"
                    checked={weekdays.includes(day)}
                    onChange={(e) => setWeekdays(e.target.checked ? [...weekdays, day] : weekdays.filter((d) => d !== day))}
                  />
                  {names[(day + 6) % 7]}
                </label>
              ))}
            </div>
            <FieldError id={`${id}-weekdays-error`} message={errors.weekdays} />
          </fieldset>
        ) : (
          input("date", "Date", { type: "date", value: date, onChange: (e) => setDate(e.target.value) })
        )}
        {kind !== "closed" ? (
          <div className="grid grid-cols-2 gap-3">
            {input("startsAt", "Starts at", { type: "time", value: startsAt, onChange: (e) => setStartsAt(e.target.value) })}
            {input("endsAt", "Ends at", { type: "time", value: endsAt, onChange: (e) => setEndsAt(e.target.value) })}
          </div>
        ) : null}
        <div className="flex justify-end gap-2">
          <Button variant="ghost" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button type="submit" disabled={saving}>
            {existing ? "Save" : "Add"}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
