// The origins that may frame the overlay (OVERLAY_FRAME_ANCESTORS), as CSP source expressions: checked when the
// configuration is read, so a typo stops startup instead of becoming a broken or too-wide Content-Security-Policy.

const KEYWORD = /^'(none|self)'$/;
const SCHEME = /^[a-z][a-z0-9+.-]*:$/i;
const HOST = /^(?:[a-z][a-z0-9+.-]*:\/\/)?(?:\*|(?:\*\.)?[a-z0-9-]+(?:\.[a-z0-9-]+)*)(?::(?:\d{1,5}|\*))?(?:\/[^\s;,'"]*)?$/i;

/** Parses "*", "'self' https://obs.example.com", "https:" … (CSP source expressions, space- or comma-separated). */
export function parseFrameAncestors(value: string): string[] {
  const sources = value.split(/[\s,]+/).filter(Boolean);
  if (sources.length === 0) throw new Error("empty: give 'none' to forbid framing the overlay");
  for (const source of sources) {
    if (!(source === "*" || KEYWORD.test(source) || SCHEME.test(source) || HOST.test(source))) throw new Error(`"${source}" is not a CSP source expression`);
  }
  if (sources.includes("'none'") && sources.length > 1) throw new Error("'none' cannot be combined with other sources");
  return sources;
}
