// The Automate tab's webhook and alert controls against the real server (whose default address policy
// refuses loopback, so a test to a local URL fails with the reason).
import { expect, signUpInBrowser, test, toastWith } from "./fixtures";

test("Automate tab: save the webhook, see a refused test and its delivery, reveal the secret, alerts explain setup", async ({ page }) => {
  await signUpInBrowser(page);
  await page.getByRole("tab", { name: "Automate" }).click();
  const url = page.getByLabel("Webhook URL");
  await expect(url).toHaveAttribute("type", "url");
  const testButton = page.getByRole("button", { name: "Test", exact: true });
  await expect(testButton).toBeDisabled();

  await url.fill("http://127.0.0.1:9/hook");
  await page.getByLabel("Send events to this webhook").check();
  await page.getByLabel("Event type").selectOption("detailed");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(toastWith(page, "Webhook settings saved")).toBeVisible();

  await testButton.click();
  await expect(toastWith(page, "Test failed")).toContainText("Refused: 127.0.0.1 is a loopback address");
  const log = page.getByRole("table", { name: "Recent deliveries" });
  await expect(log).toContainText("webhook_test");
  await expect(log).toContainText("failed");

  await page.getByRole("button", { name: "Show signing secret" }).click();
  await expect(page.getByTestId("webhook-secret")).toHaveText(/^whsec_/);

  await expect(page.getByText("E-mail alerts are not set up on this server")).toContainText("SMTP_HOST");
  await expect(page.getByText("SMS alerts are not set up on this server")).toContainText("SMS_ACCOUNT_SID");

  await page.reload();
  await page.getByRole("tab", { name: "Automate" }).click();
  await expect(page.getByLabel("Webhook URL")).toHaveValue("http://127.0.0.1:9/hook");
  await expect(page.getByLabel("Event type")).toHaveValue("detailed");
});
