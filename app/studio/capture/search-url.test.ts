import { describe, expect, it } from "vitest";
import { filtersFromUrl, filtersToUrl, isSearching } from "./search-url";

describe("search in the URL", () => {
  it("reads the URL's search, leaving out what makes no sense", () => {
    const params = new URLSearchParams("q=red+car&camera=c1&mode=burst&auto=true&people=3&from=2026-01-01&label=dog&story=s1&to=2026-02-01&other=x");
    expect(filtersFromUrl(params)).toEqual({
      q: "red car",
      cameraId: "c1",
      captureMode: "burst",
      autoCapture: true,
      minPeople: 3,
      from: "2026-01-01",
      to: "2026-02-01",
      label: "dog",
      storyId: "s1",
    });
    expect(filtersFromUrl(new URLSearchParams("mode=panorama&auto=maybe&people=0&q=%20"))).toEqual({});
    expect(isSearching(filtersFromUrl(new URLSearchParams("other=x")))).toBe(false);
  });

  it("writes a search back, keeping the page's other parameters and dropping cleared ones", () => {
    const next = filtersToUrl({ q: "fox", autoCapture: false, minPeople: 2 }, new URLSearchParams("other=x&camera=c1"));
    expect(next.toString()).toBe("other=x&q=fox&auto=false&people=2");
    expect(filtersFromUrl(next)).toEqual({ q: "fox", autoCapture: false, minPeople: 2 });
  });
});
