// "Export": the current view as CSV, Excel or a printable PDF, downloaded from the report's export addresses with the
// page's query (the browser sends the session cookie).
import * as Dropdown from "@radix-ui/react-dropdown-menu";
import { insightsApi, type ExportFormat, type ReportQueryInput } from "../../lib/api/insights";
import { DownloadIcon } from "../ui/icons";
import { buttonClass } from "../ui/button";

const FORMATS: { format: ExportFormat; label: string }[] = [
  { format: "csv", label: "CSV" },
  { format: "xlsx", label: "Excel" },
  { format: "pdf", label: "PDF" },
];

export function ExportMenu({ query }: { query: ReportQueryInput }) {
  const itemClass = "block cursor-pointer rounded px-3 py-2 text-sm text-slate-200 outline-none data-[highlighted]:bg-ink-700";
  return (
    <Dropdown.Root>
      <Dropdown.Trigger className={buttonClass("secondary")}>
        <DownloadIcon /> Export
      </Dropdown.Trigger>
      <Dropdown.Portal>
        <Dropdown.Content sideOffset={4} align="end" className="z-50 min-w-40 rounded-md border border-ink-700 bg-ink-800 p-1 shadow-xl">
          {FORMATS.map(({ format, label }) => (
            <Dropdown.Item key={format} asChild className={itemClass}>
              <a href={insightsApi.exportUrl(format, query)} download>
                {label}
              </a>
            </Dropdown.Item>
          ))}
        </Dropdown.Content>
      </Dropdown.Portal>
    </Dropdown.Root>
  );
}
