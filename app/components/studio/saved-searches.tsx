// "Save this search" (a name, and whether a newly saved photo that matches it sends the webhook, an e-mail or an
// SMS) and the list of saved searches: open one, or delete it.
import { useEffect, useState } from "react";
import { errorDetail, problemFieldErrors } from "../../lib/api/errors";
import { searchApi } from "../../lib/api/search";
import type { SavedSearch, SearchFilters } from "../../schemas/search";
import { isSearching } from "../../studio/capture/search-url";
import { Button } from "../ui/button";
import { Dialog } from "../ui/dialog";
import { Field } from "../ui/field";
import { TrashIcon } from "../ui/icons";
import { toast } from "../ui/toast-store";

const linkClass = "text-xs text-slate-300 hover:text-white";

export function SavedSearches({ filters, onOpen }: { filters: SearchFilters; onOpen: (filters: SearchFilters) => void }) {
  const [saving, setSaving] = useState(false);
  const [listing, setListing] = useState(false);
  return (
    <>
      {isSearching(filters) ? (
        <button type="button" className={linkClass} onClick={() => setSaving(true)}>
          Save this search
        </button>
      ) : null}
      <button type="button" className={linkClass} onClick={() => setListing(true)}>
        Saved searches
      </button>
      {saving ? <SaveDialog filters={filters} onClose={() => setSaving(false)} /> : null}
      {listing ? (
        <SavedList
          onClose={() => setListing(false)}
          onOpen={(saved) => {
            setListing(false);
            onOpen(saved.query);
          }}
        />
      ) : null}
    </>
  );
}

function SaveDialog({ filters, onClose }: { filters: SearchFilters; onClose: () => void }) {
  const [name, setName] = useState(filters.q ?? "");
  const [notify, setNotify] = useState({ notifyWebhook: false, notifyEmail: false, notifySms: false });
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [busy, setBusy] = useState(false);
  const save = async () => {
    setBusy(true);
    try {
      await searchApi.save({ name, query: filters, ...notify });
      toast({ title: "Search saved", description: "New photos that match it will notify you as you chose." });
      onClose();
    } catch (error) {
      const fields = problemFieldErrors(error);
      setErrors(fields);
      if (!fields.name) toast({ title: "Could not save the search", description: errorDetail(error, "Please try again."), variant: "destructive" });
    } finally {
      setBusy(false);
    }
  };
  const box = (key: keyof typeof notify, label: string) => (
    <label className="flex items-center gap-2 text-sm text-slate-200">
      <input type="checkbox" checked={notify[key]} onChange={(event) => setNotify({ ...notify, [key]: event.target.checked })} />
      {label}
    </label>
  );
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title="Save this search" description="When a newly saved photo matches it:">
      <form
        className="space-y-3"
        onSubmit={(event) => {
          event.preventDefault();
          void save();
        }}
      >
        <Field id="saved-search-name" label="Name" value={name} maxLength={100} onChange={(event) => setName(event.target.value)} errors={errors.name} />
        {box("notifyWebhook", "Send the webhook")}
        {box("notifyEmail", "Send an e-mail alert")}
        {box("notifySms", "Send an SMS alert")}
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" disabled={busy}>
            Save
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

const channels = (search: SavedSearch) => [search.notifyWebhook && "webhook", search.notifyEmail && "e-mail", search.notifySms && "SMS"].filter(Boolean).join(", ");

function describe(query: SearchFilters): string {
  const parts = [query.q ? `"${query.q}"` : null, query.label ? `object ${query.label}` : null, query.minPeople ? `≥ ${query.minPeople} people` : null];
  return parts.filter(Boolean).join(", ") || "facets only";
}

function SavedList({ onClose, onOpen }: { onClose: () => void; onOpen: (saved: SavedSearch) => void }) {
  const [saved, setSaved] = useState<SavedSearch[] | null>(null);
  useEffect(() => {
    searchApi
      .saved()
      .then(setSaved, (error: unknown) => toast({ title: "Could not load saved searches", description: errorDetail(error, "Please try again."), variant: "destructive" }));
  }, []);
  const remove = async (id: string) => {
    try {
      await searchApi.removeSaved(id);
      setSaved((list) => list?.filter((s) => s.id !== id) ?? null);
    } catch (error) {
      toast({ title: "Could not delete the search", description: errorDetail(error, "Please try again."), variant: "destructive" });
    }
  };
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title="Saved searches">
      {saved === null ? <p className="text-sm text-slate-400">Loading...</p> : null}
      {saved?.length === 0 ? <p className="text-sm text-slate-400">No saved searches yet</p> : null}
      <ul className="space-y-2" aria-label="Saved searches">
        {saved?.map((search) => (
          <li key={search.id} className="flex items-center justify-between gap-2 rounded border border-ink-700 p-2" data-testid="saved-search">
            <button type="button" className="min-w-0 text-left" onClick={() => onOpen(search)}>
              <span className="block truncate text-sm text-slate-100">{search.name}</span>
              <span className="block truncate text-xs text-slate-400">
                {describe(search.query)}
                {channels(search) ? ` · notifies by ${channels(search)}` : ""}
              </span>
            </button>
            <button
              type="button"
              aria-label={`Delete saved search ${search.name}`}
              onClick={() => void remove(search.id)}
              className="rounded p-1 text-slate-400 hover:text-red-400"
            >
              <TrashIcon />
            </button>
          </li>
        ))}
      </ul>
    </Dialog>
  );
}
