// AI tab → API key: the saved state with Update, or the key input with Save; the free-call usage for
// users on the shared key; and the AI failure that currently needs the person to act (until resolved).
import { useId, useState } from "react";
import { FREE_SHARED_CALLS } from "#app/schemas/vision";
import { Button } from "../../ui/button";
import { useAi, useStore } from "../studio-context";

export function ApiKeySection() {
  const ai = useAi();
  const user = useStore(ai.account.store, (s) => s.user);
  const saving = useStore(ai.account.store, (s) => s.saving);
  const poolExhausted = useStore(ai.account.store, (s) => s.poolExhausted);
  const failure = useStore(ai.failures.store, (s) => s.current);
  // Unique per copy: the desktop panel and a mobile sheet can both be in the DOM.
  const id = useId();
  const [editing, setEditing] = useState(false);
  const [value, setValue] = useState("");
  const hasKey = Boolean(user?.hasMoondreamApiKey);

  const save = async () => {
    if ((await ai.account.saveKey(value)) === "saved") {
      setEditing(false);
      setValue("");
    }
  };

  return (
    <section className="space-y-3" aria-labelledby={`${id}-heading`}>
      <h3 id={`${id}-heading`} className="text-sm font-semibold text-white">
        API key
      </h3>
      {hasKey && !editing ? (
        <div className="flex items-center justify-between gap-2 rounded-md border border-ink-700 bg-ink-950 px-3 py-2">
          <span className="text-sm text-emerald-300">API key saved</span>
          <Button variant="secondary" className="px-3 py-1 text-xs" onClick={() => setEditing(true)}>
            Update
          </Button>
        </div>
      ) : (
        <form
          className="space-y-2"
          onSubmit={(event) => {
            event.preventDefault();
            void save();
          }}
        >
          <label htmlFor={`${id}-key`} className="block text-xs text-slate-300">
            Your Moondream API key
          </label>
          <input
            id={`${id}-key`}
            type="password"
            autoComplete="off"
            spellCheck={false}
            value={value}
            onChange={(e) => setValue(e.target.value)}
            placeholder="Paste your key"
            className="block w-full rounded-md border border-ink-700 bg-ink-950 px-3 py-1.5 text-sm text-slate-100 placeholder:text-slate-500 focus:border-brand-400 focus:outline-none"
          />
          <div className="flex gap-2">
            <Button type="submit" className="px-3 py-1 text-xs" disabled={value.length === 0 || saving}>
              {saving ? "Saving..." : "Save"}
            </Button>
            {hasKey ? (
              <Button
                variant="ghost"
                className="px-3 py-1 text-xs"
                onClick={() => {
                  setEditing(false);
                  setValue("");
                }}
              >
                Cancel
              </Button>
            ) : null}
          </div>
          <p className="text-xs text-slate-400">
            Free keys at{" "}
            <a href="https://moondream.ai" target="_blank" rel="noopener noreferrer" className="text-brand-300 underline">
              moondream.ai
            </a>
            . Saved encrypted on the server, never shown again.
          </p>
        </form>
      )}
      {user && !hasKey ? (
        <p className="text-xs text-slate-300" data-testid="free-calls">
          {user.sharedKeyUsageCount} of {FREE_SHARED_CALLS} free calls used
          {poolExhausted ? " · today's free pool on the shared key is used up (it refills at 00:00 UTC)" : ""}
        </p>
      ) : null}
      {failure ? (
        <div className="rounded-md border border-red-800 bg-red-950/60 px-3 py-2 text-xs" data-testid="ai-failure" role="alert">
          <p className="font-semibold text-red-200">{failure.title}</p>
          <p className="text-red-300/90">{failure.message}</p>
        </div>
      ) : null}
    </section>
  );
}
