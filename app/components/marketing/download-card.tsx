// One module on /downloads: a download button when it is available, an 'In Development' badge otherwise.
import { buttonClass } from "../ui/button";
import { PEOPLE_COUNTER_FILE, type DownloadModule } from "./content/downloads";
import { CheckIcon, ClockIcon, DownloadIcon, UsersIcon } from "./icons";

export function DownloadCard({ module }: { module: DownloadModule }) {
  const available = module.status === "available" && module.downloadUrl;
  const headingId = `module-${module.id}`;
  return (
    <article
      aria-labelledby={headingId}
      className={`flex flex-col rounded-3xl border p-8 ${available ? "border-brand-400/50 bg-gradient-to-br from-brand-500/10 to-ink-900" : "border-ink-700 bg-ink-900"}`}
    >
      <div className="flex items-start justify-between gap-4">
        <span className={`flex h-12 w-12 shrink-0 items-center justify-center rounded-xl ${available ? "bg-brand-500/20 text-brand-400" : "bg-ink-800 text-slate-300"}`}>
          {available ? <UsersIcon className="h-6 w-6" /> : <ClockIcon className="h-6 w-6" />}
        </span>
        <p
          className={`rounded-full px-3 py-1 text-xs font-semibold ${
            available ? "bg-emerald-500/15 text-emerald-300 ring-1 ring-emerald-500/30" : "bg-amber-500/10 text-amber-200 ring-1 ring-amber-500/30"
          }`}
        >
          {available ? "Available" : module.status}
        </p>
      </div>
      <h2 id={headingId} className="mt-6 text-xl font-semibold text-white">
        {module.name}
      </h2>
      <p className="mt-2 leading-7 text-slate-300">{module.description}</p>
      <ul className="mt-5 space-y-2 text-sm">
        {module.features.map((feature) => (
          <li key={feature} className="flex gap-2.5 text-slate-200">
            <CheckIcon className={`h-5 w-5 shrink-0 ${available ? "text-brand-400" : "text-slate-400"}`} />
            {feature}
          </li>
        ))}
      </ul>
      <div className="mt-auto pt-8">
        {available ? (
          // A plain link: the browser saves the file instead of the router navigating to it.
          <a href={module.downloadUrl!} download={PEOPLE_COUNTER_FILE} className={buttonClass("primary", "w-full py-3")}>
            <DownloadIcon className="h-5 w-5" />
            Download {PEOPLE_COUNTER_FILE}
          </a>
        ) : (
          <p className="rounded-md border border-dashed border-ink-700 px-4 py-3 text-center text-sm text-slate-400">Coming soon</p>
        )}
      </div>
    </article>
  );
}
