// Story mode with a model that answers in JSON, markdown or nothing at all: the overlay and the story's
// timeline show plain prose, and an empty answer is neither shown nor recorded.
import { addWebcam, aiTab, expect, saveOwnKey, scriptAnswers, signUpInBrowser, test, toastWith } from "./fixtures";

test("story captions from fenced JSON and markdown read as prose; an empty answer is skipped", async ({ page }) => {
  page.on("dialog", (dialog) => void dialog.accept());
  await signUpInBrowser(page);
  await addWebcam(page);
  const key = await saveOwnKey(page);
  const first = "The stage lights come up slowly.";
  const second = "Act Two. A red square waits in the middle.";
  await scriptAnswers(page, key, [
    '```json\n{\n  "caption": "The stage lights come up slowly.",\n  "mood": "calm"\n}\n```',
    "",
    "## Act Two\n\n**A red square** waits in the *middle*.",
  ]);
  const tab = aiTab(page);
  await tab.getByLabel("Story speed").selectOption("fast");
  await tab.getByRole("switch", { name: "Story Mode" }).click();
  await expect(toastWith(page, "Story Started")).toBeVisible({ timeout: 15_000 });
  const caption = page.getByTestId("story-overlay").getByTestId("story-caption");
  await expect(caption).toHaveText(first, { timeout: 15_000 });
  await expect(caption).toHaveText(second, { timeout: 15_000 });

  const [story] = (await (await page.request.get("/api/stories")).json()) as Array<{ id: string }>;
  const captions = async () => ((await (await page.request.get(`/api/stories/${story!.id}/captions`)).json()) as Array<{ caption: string }>).map((c) => c.caption);
  await expect.poll(async () => (await captions()).length, { timeout: 15_000 }).toBeGreaterThanOrEqual(2);
  // The empty answer between them left nothing behind (the fake's own answers follow the scripted ones).
  expect((await captions()).slice(0, 2)).toEqual([first, second]);

  await page.getByRole("region", { name: "Library and capture" }).getByRole("tab", { name: "Stories" }).click();
  await page.getByRole("button", { name: "Stop Story" }).first().click();
  await expect(toastWith(page, "Story Finished")).toBeVisible();
});
