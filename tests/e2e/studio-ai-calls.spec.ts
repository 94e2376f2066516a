// The AI tab's "AI calls" panel against the real server and the fake Moondream: none at first, then the
// caption loop's calls under "Captions" once they are answered, beside local detection's zero calls.
import { addWebcam, aiTab, expect, saveOwnKey, scriptAnswers, signUpInBrowser, test } from "./fixtures";

test("AI calls: the captions' Moondream calls show per feature after they are made; local detection spends none", async ({ page }) => {
  await signUpInBrowser(page);
  await addWebcam(page);
  const key = await saveOwnKey(page);
  await scriptAnswers(page, key, ["A first caption.", "A second caption."]);
  const tab = aiTab(page);
  const panel = tab.getByTestId("ai-calls");
  await expect(panel.getByRole("heading", { name: "AI calls" })).toBeVisible();
  await expect(panel).toContainText("No Moondream calls in the last 24 hours");
  await expect(panel.getByTestId("local-detection-calls")).toHaveText("Local detection: 0 calls · 0 frames analysed on this device");

  await tab.getByRole("switch", { name: "Enable AI analysis" }).click();
  await expect(page.getByTestId("ai-caption")).toHaveText("A first caption.", { timeout: 15_000 });
  await tab.getByRole("switch", { name: "Enable AI analysis" }).click();
  await expect(tab.getByRole("switch", { name: "Enable AI analysis" })).toHaveAttribute("aria-checked", "false");

  // Refreshed after the call, with no reload: the row shows what the server counted for this user.
  const row = panel.getByRole("row", { name: /^Captions/ });
  await expect(row).toBeVisible();
  const stored = async () => ((await (await page.request.get("/api/moondream/usage")).json()) as { totals: Array<{ feature: string; calls: number }> }).totals;
  const totals = await stored();
  expect(totals).toEqual([{ feature: "captions", calls: expect.any(Number) }]);
  await expect(row.getByRole("cell").last()).toHaveText(String(totals[0]!.calls));
  await expect(panel.getByRole("row")).toHaveCount(2); // the header and Captions
});
