// "Share": read-only links to the current view (the report page, or the lobby widget's number) for a period read on
// the day they are opened, expiring; the list of links with Copy link and Revoke.
import { useCallback, useEffect, useId, useState } from "react";
import { insightsApi } from "../../lib/api/insights";
import { shareInputSchema, type RelativePeriod, type ReportFilter, type Share } from "../../schemas/insights";
import { Button } from "../ui/button";
import { Dialog } from "../ui/dialog";
import { toast } from "../ui/toast-store";
import { FieldError, SelectField, TextField, inputClass } from "./controls";
import { PERIOD_PRESETS } from "./filter";
import { apiErrors, schemaErrors, toastError, type FormErrors } from "./form-errors";
import { formatInstant } from "./format";

export function ShareDialog({
  open,
  onOpenChange,
  view,
  period: initialPeriod,
  title,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  view: ReportFilter;
  period: RelativePeriod;
  title: string;
}) {
  const id = useId();
  const [shares, setShares] = useState<Share[] | null>(null);
  // When the list was loaded: a link past its expiry then shows as expired.
  const [loadedAt, setLoadedAt] = useState(0);
  const [name, setName] = useState(title);
  const [kind, setKind] = useState<"report" | "widget">("report");
  const [period, setPeriod] = useState<RelativePeriod>(initialPeriod);
  const [expiresInDays, setExpiresInDays] = useState("30");
  const [errors, setErrors] = useState<FormErrors>({});

  const load = useCallback(async () => {
    try {
      setShares(await insightsApi.shares());
      setLoadedAt(Date.now());
    } catch (error) {
      toastError(error, "Couldn't load the share links");
    }
  }, []);
  useEffect(() => {
    if (open) void load();
  }, [open, load]);

  const create = async () => {
    const body = { name, kind, view: { ...view, period }, expiresInDays: Number(expiresInDays) };
    const checked = shareInputSchema.safeParse(body);
    if (!checked.success) return setErrors(schemaErrors(checked.error));
    setErrors({});
    try {
      const share = await insightsApi.createShare(body);
      toast({ title: "Link created", description: share.name });
      await load();
    } catch (error) {
      setErrors(apiErrors(error, "Couldn't create the link"));
    }
  };

  const revoke = async (share: Share) => {
    try {
      await insightsApi.revokeShare(share.id);
      toast({ title: "Link revoked", description: share.name });
      await load();
    } catch (error) {
      toastError(error, "Couldn't revoke the link");
    }
  };

  const copy = async (share: Share) => {
    try {
      await navigator.clipboard.writeText(absolute(share.url));
      toast({ title: "Link copied", description: share.name });
    } catch {
      toast({ title: "Couldn't copy the link", description: "Select it and copy it yourself.", variant: "destructive" });
    }
  };

  return (
    <Dialog open={open} onOpenChange={onOpenChange} title="Share" description="A read-only link to this view, for anyone who has it, until it expires or you revoke it." size="lg">
      <form
        className="grid gap-3 sm:grid-cols-2"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void create();
        }}
      >
        <TextField id={`${id}-name`} label="Name" value={name} onChange={setName} error={errors.name} className="space-y-1 sm:col-span-2" />
        <SelectField id={`${id}-kind`} label="Show" value={kind} onChange={(v) => setKind(v as "report" | "widget")} error={errors.kind}>
          <option value="report">Report page</option>
          <option value="widget">Lobby widget (today&apos;s visitors)</option>
        </SelectField>
        <SelectField id={`${id}-period`} label="Period" value={period} onChange={(v) => setPeriod(v as RelativePeriod)} error={errors.view}>
          {PERIOD_PRESETS.map((p) => (
            <option key={p.id} value={p.id}>
              {p.label}
            </option>
          ))}
        </SelectField>
        <div className="space-y-1">
          <label htmlFor={`${id}-expires`} className="block text-xs font-medium text-slate-300">
            Expires in (days)
          </label>
          <input
            id={`${id}-expires`}
            type="number"
            inputMode="numeric"
            min={1}
            max={365}
            className={inputClass}
            value={expiresInDays}
            onChange={(e) => setExpiresInDays(e.target.value)}
            aria-invalid={errors.expiresInDays ? true : undefined}
            aria-describedby={errors.expiresInDays ? `${id}-expires-error` : undefined}
          />
          <FieldError id={`${id}-expires-error`} message={errors.expiresInDays} />
        </div>
        <div className="flex items-end justify-end">
          <Button type="submit">Create link</Button>
        </div>
      </form>
      <h3 className="mt-5 mb-2 text-sm font-semibold text-white">Links</h3>
      {shares?.length === 0 ? <p className="text-sm text-slate-400">No links yet.</p> : null}
      <ul className="divide-y divide-ink-800" data-testid="shares">
        {shares?.map((share) => {
          const live = share.revokedAt === null && Date.parse(share.expiresAt) > loadedAt;
          return (
            <li key={share.id} className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm text-slate-200">
              <span className="min-w-0">
                <span className="font-medium text-white">{share.name}</span>{" "}
                <span className="text-slate-400">
                  {share.kind === "widget" ? "widget" : "report"} ·{" "}
                  {share.revokedAt ? "revoked" : live ? `expires ${formatInstant(share.expiresAt, Intl.DateTimeFormat().resolvedOptions().timeZone, "day")}` : "expired"}
                </span>
                {live ? (
                  <a href={absolute(share.url)} target="_blank" rel="noopener noreferrer" className="text-brand-300 block truncate text-xs underline" data-testid="share-link">
                    {absolute(share.url)}
                  </a>
                ) : null}
              </span>
              {live ? (
                <span className="flex gap-1">
                  <Button variant="ghost" className="px-2 py-1" aria-label={`Copy link ${share.name}`} onClick={() => void copy(share)}>
                    Copy link
                  </Button>
                  <Button variant="ghost" className="px-2 py-1" aria-label={`Revoke ${share.name}`} onClick={() => void revoke(share)}>
                    Revoke
                  </Button>
                </span>
              ) : null}
            </li>
          );
        })}
      </ul>
    </Dialog>
  );
}

function absolute(url: string): string {
  return new URL(url, window.location.origin).href;
}
