// File names and downloads (spec §9).
import { format } from "date-fns";

/** A graded download is always a JPEG; an edit is named after its kind, and a cut-out (with transparency) is a PNG. */
export function photoFileName(photo: { captureMode: string; createdAt: string; editKind?: string | null }, lutName?: string | null): string {
  const stamp = format(new Date(photo.createdAt), "yyyy-MM-dd_HH-mm-ss");
  const lut = lutName ? `_${lutName.replace(/[^a-z0-9]+/gi, "-")}` : "";
  const edit = photo.editKind ? `_${photo.editKind}` : "";
  return `photo_${photo.captureMode}_${stamp}${edit}${lut}.${photo.editKind === "cutout" && !lutName ? "png" : "jpg"}`;
}

export function storyFileName(title: string): string {
  return `${title.toLowerCase().replace(/[^a-z0-9]/g, "_")}.txt`;
}

export function downloadUrl(url: string, fileName: string): void {
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  document.body.appendChild(link);
  link.click();
  link.remove();
}

export function downloadText(text: string, fileName: string, type = "text/plain"): void {
  const url = URL.createObjectURL(new Blob([text], { type: `${type};charset=utf-8` }));
  downloadUrl(url, fileName);
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
