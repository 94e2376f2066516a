// The Automate tab's webhook and alert controls against the real server: a loopback URL is refused when saved,
// with the server's reason under the field; the one address the e2e server allows (127.0.0.2) saves, and its
// test fails (nothing listens there) and shows in the delivery log.
import { expect, signUpInBrowser, test, toastWith } from "./fixtures";

// The refused save is a 422 the browser logs as a failed resource; the page itself handles it.
test.use({ allowConsoleErrors: [/status of 422/] });

test("Automate tab: a refused URL is explained under the field, a saved one is tested and logged, the secret is revealed, alerts explain setup", async ({ page }) => {
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
  const refusal = "This address is not reachable from the internet: 127.0.0.1 is a loopback address";
  await expect(url).toHaveAccessibleDescription(refusal);
  await expect(url).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByText(refusal)).toBeVisible();

  await url.fill("http://127.0.0.2:9/hook");
  await expect(page.getByText(refusal)).toBeHidden();
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(toastWith(page, "Webhook settings saved")).toBeVisible();
  await expect(url).not.toHaveAttribute("aria-invalid");

  await testButton.click();
  await expect(toastWith(page, "Test failed")).toContainText("Connection refused");
  const log = page.getByRole("table", { name: "Recent deliveries" });
  await expect(log).toContainText("webhook_test");
  await expect(log).toContainText("failed");

  await page.getByRole("button", { name: "Show signing secret" }).click();
  await expect(page.getByTestId("webhook-secret")).toHaveText(/^whsec_/);

  await expect(page.getByText("E-mail alerts are not set up on this server")).toContainText("SMTP_HOST");
  await expect(page.getByText("SMS alerts are not set up on this server")).toContainText("SMS_ACCOUNT_SID");

  await page.reload();
  await page.getByRole("tab", { name: "Automate" }).click();
  await expect(page.getByLabel("Webhook URL")).toHaveValue("http://127.0.0.2:9/hook");
  await expect(page.getByLabel("Event type")).toHaveValue("detailed");
});
