import { describe, expect, it } from "vitest";
import { NO_READING } from "./store";
import { overlayPage } from "./overlay-page";

describe("live.html", () => {
  it("renders team names from the model as text, never as markup", () => {
    const html = overlayPage(
      { ...NO_READING, version: 3, homeTeam: '<img src=x onerror="alert(1)">', awayTeam: "</script><script>alert(2)</script>", homeScore: 1, awayScore: 0, periodLabel: "Q1" },
      "n0nce",
    );
    expect(html).not.toContain("<img");
    expect(html).toContain("&#60;img src=x onerror=&#34;alert(1)&#34;&#62;");
    expect(html.match(/<script\b/g)).toHaveLength(1);
    expect(html).toContain('<script nonce="n0nce">');
  });

  it("is transparent with no margin, and hides the score bug until there is a reading", () => {
    const html = overlayPage(NO_READING, "n");
    expect(html).toMatch(/html, body \{ margin: 0; padding: 0; background: transparent;/);
    expect(html).toContain('id="scoreboard" hidden');
    expect(html).toContain('id="period-label">LIVE<');
    expect([...html.matchAll(/\b(?:src|href)="([^"]*)"/g)].map((m) => m[1])).toEqual(["data:,"]); // no external resources (not even a favicon request)
  });
});
