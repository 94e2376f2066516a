// CSV for spreadsheets: every export (a camera's counts, an Insights report) writes its cells through here.

/** A spreadsheet cell: quoted when needed, and never read as a formula (a name starting with = + - @). */
export function csvCell(value: string | number): string {
  let text = String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\n\r]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** Rows of cells as CSV text (CRLF line ends, as RFC 4180 and Excel expect). */
export function csvRows(rows: readonly (readonly (string | number)[])[]): string {
  return rows.map((row) => row.map(csvCell).join(",")).join("\r\n") + "\r\n";
}

/** A file-name-safe slug of a name ("Shop, front" → "shop-front"), or `fallback` when nothing is left. */
export function slugOf(name: string, fallback: string): string {
  return (
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-|-$/g, "") || fallback
  );
}
