// Sign-up, sign-in and their messages in a real browser, with and without JavaScript.
import { E2E_ADMIN, expect, signUpInBrowser, test, toastWith, uniqueUsername } from "./fixtures";

test.describe("sign-up", () => {
  test.use({ allowConsoleErrors: [/status of 409/] });
  test("creates an account, lands in the studio and greets with a toast", async ({ page }) => {
    const { username } = await signUpInBrowser(page);
    await expect(page.getByTestId("signed-in-user")).toHaveText(username);
    await expect(toastWith(page, "Account created!")).toContainText("Welcome to Framewise.");
  });

  test("shows each validation message beneath its field", async ({ page }) => {
    await page.goto("/signup");
    await page.getByRole("button", { name: "Create Account" }).click();
    await expect(page.locator("#signup-username-error")).toHaveText("Username is required");
    await expect(page.locator("#signup-password-error")).toHaveText("Password is required");

    await page.getByLabel("Username").fill("ab");
    await page.getByLabel("Password", { exact: true }).fill("12345");
    await page.getByLabel("Confirm password").fill("54321");
    await page.getByRole("button", { name: "Create Account" }).click();
    await expect(page.locator("#signup-username-error")).toHaveText("Username must be at least 3 characters");
    await expect(page.locator("#signup-password-error")).toHaveText("Password must be at least 6 characters");
    await expect(page.locator("#signup-confirmPassword-error")).toHaveText("Passwords don't match");
    await expect(page.getByLabel("Confirm password")).toHaveAttribute("aria-describedby", "signup-confirmPassword-error");
    await expect(page.getByLabel("Password", { exact: true })).toHaveAttribute("placeholder", "At least 6 characters");
    await expect(page).toHaveURL(/\/signup$/);
  });

  test("a taken username shows the server's message and the 'Signup failed' toast", async ({ page }) => {
    await page.goto("/signup");
    await page.getByLabel("Username").fill(E2E_ADMIN.username.toUpperCase());
    await page.getByLabel("Password", { exact: true }).fill("secret-pass");
    await page.getByLabel("Confirm password").fill("secret-pass");
    await page.getByRole("button", { name: "Create Account" }).click();
    await expect(page.locator("#signup-username-error")).toHaveText("That username is already taken.");
    await expect(toastWith(page, "Signup failed")).toContainText("That username is already taken.");
  });
});

test.describe("sign-in", () => {
  test.use({ allowConsoleErrors: [/status of 401/] });

  test("a wrong password shows the 'Login failed' toast and the message; the right one signs in", async ({ page, browser }) => {
    const context = await browser.newContext();
    const setup = await context.newPage();
    const { username, password } = await signUpInBrowser(setup);
    await context.close();

    await page.goto("/login");
    await page.getByLabel("Username").fill(username);
    await page.getByLabel("Password").fill("not-the-password");
    await page.getByRole("button", { name: "Sign In" }).click();
    const toast = toastWith(page, "Login failed");
    await expect(toast).toBeVisible();
    await expect(toast).toContainText("Invalid username or password");
    await expect(page.getByRole("alert")).toHaveText("Invalid username or password");

    await page.getByLabel("Password").fill(password);
    await page.getByRole("button", { name: "Sign In" }).click();
    await expect(page).toHaveURL(/\/studio$/);
    await expect(toastWith(page, "Welcome back!")).toContainText("You have successfully logged in.");
  });

  test("required fields show their messages beneath the fields", async ({ page }) => {
    await page.goto("/login");
    // Required to assistive technology, but never the browser's own bubble, which would hide our message.
    for (const name of ["Username", "Password"]) {
      await expect(page.getByLabel(name)).toHaveAttribute("aria-required", "true");
      await expect(page.getByLabel(name)).not.toHaveAttribute("required");
    }
    await page.getByRole("button", { name: "Sign In" }).click();
    await expect(page.locator("#login-username-error")).toHaveText("Username is required");
    await expect(page.locator("#login-password-error")).toHaveText("Password is required");
  });

  test("an anonymous visit to the studio goes to /login and back after signing in", async ({ page, browser }) => {
    const context = await browser.newContext();
    const { username, password } = await signUpInBrowser(await context.newPage());
    await context.close();
    await page.goto("/studio");
    await expect(page).toHaveURL(/\/login\?redirectTo=%2Fstudio$/);
    await page.getByLabel("Username").fill(username);
    await page.getByLabel("Password").fill(password);
    await page.getByRole("button", { name: "Sign In" }).click();
    await expect(page).toHaveURL(/\/studio$/);
  });

  test("sign out ends the session", async ({ page }) => {
    await signUpInBrowser(page);
    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(page).toHaveURL(/\/$/);
    await page.goto("/studio");
    await expect(page).toHaveURL(/\/login/);
  });
});

test.describe("without JavaScript", () => {
  // Without JavaScript the browser logs the 400 and 401 answers to the form posts themselves.
  test.use({ javaScriptEnabled: false, allowConsoleErrors: [/status of 40[01]/] });

  test("sign-up and sign-in work as plain form posts, with server-rendered messages", async ({ page }) => {
    const username = uniqueUsername("nojs");
    await page.goto("/signup");
    await page.getByLabel("Username").fill("x");
    await page.getByLabel("Password", { exact: true }).fill("secret-pass");
    await page.getByLabel("Confirm password").fill("different");
    await page.getByRole("button", { name: "Create Account" }).click();
    await expect(page.locator("#signup-username-error")).toHaveText("Username must be at least 3 characters");
    await expect(page.locator("#signup-confirmPassword-error")).toHaveText("Passwords don't match");

    await page.getByLabel("Username").fill(username);
    await page.getByLabel("Password", { exact: true }).fill("secret-pass");
    await page.getByLabel("Confirm password").fill("secret-pass");
    await page.getByRole("button", { name: "Create Account" }).click();
    await expect(page).toHaveURL(/\/studio$/);
    await expect(page.getByTestId("signed-in-user")).toHaveText(username);

    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(page).toHaveURL(/\/$/);
    await page.goto("/login");
    await page.getByLabel("Username").fill(username);
    await page.getByLabel("Password").fill("wrong-pass");
    await page.getByRole("button", { name: "Sign In" }).click();
    await expect(page.getByRole("alert")).toHaveText("Invalid username or password");
    await page.getByLabel("Username").fill(username);
    await page.getByLabel("Password").fill("secret-pass");
    await page.getByRole("button", { name: "Sign In" }).click();
    await expect(page).toHaveURL(/\/studio$/);
  });
});
