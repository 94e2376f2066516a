// The fallback screens say what the spec says, whatever was thrown.
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { errorMessage, ForbiddenScreen, UnexpectedErrorScreen } from "./error-screens";

describe("UnexpectedErrorScreen", () => {
  it("shows the spec's title, description, the error's message and a Reload Page button", () => {
    const html = renderToStaticMarkup(<UnexpectedErrorScreen message={errorMessage(new TypeError("x is undefined"))} />);
    expect(html).toContain("<h1");
    expect(html).toContain("Something went wrong</h1>");
    expect(html).toContain("The application encountered an unexpected error.");
    expect(html).toContain("x is undefined");
    expect(html).toMatch(/<button[^>]*>Reload Page<\/button>/);
  });

  it("escapes the message rather than rendering it as markup", () => {
    const html = renderToStaticMarkup(<UnexpectedErrorScreen message={errorMessage("<img src=x onerror=alert(1)>")} />);
    expect(html).not.toContain("<img");
    expect(html).toContain("&lt;img src=x onerror=alert(1)&gt;");
  });
});

describe("errorMessage", () => {
  it("reads Errors, strings and anything else", () => {
    expect(errorMessage(new Error("boom"))).toBe("boom");
    expect(errorMessage(new RangeError(""))).toBe("RangeError");
    expect(errorMessage("plain")).toBe("plain");
    expect(errorMessage({ weird: true })).toBe("Unknown error");
  });
});

describe("ForbiddenScreen", () => {
  it("explains the refusal and links back to the studio", () => {
    const html = renderToStaticMarkup(<ForbiddenScreen message="Only administrators can open this page." />);
    expect(html).toContain("You don&#x27;t have access to this page");
    expect(html).toContain('href="/studio"');
  });
});
