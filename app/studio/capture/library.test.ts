import { describe, expect, it } from "vitest";
import { mergeLoaded } from "./library";

const item = (id: string, state = "loaded") => ({ id, state });

describe("a list answer merged with changes made while it loaded", () => {
  it("is taken as it is when nothing changed meanwhile", () => {
    expect(mergeLoaded([item("a"), item("b")], [item("old")], new Set())).toEqual([item("a"), item("b")]);
  });

  it("keeps an item added meanwhile that the answer, read earlier, lacks", () => {
    expect(mergeLoaded([item("a")], [item("new", "local"), item("a", "stale")], new Set(["new"]))).toEqual([item("new", "local"), item("a")]);
  });

  it("keeps the local version of an item changed meanwhile (a story finished while its tab loaded)", () => {
    expect(mergeLoaded([item("s", "active"), item("t")], [item("s", "finished")], new Set(["s"]))).toEqual([item("s", "finished"), item("t")]);
  });

  it("does not bring back an item deleted meanwhile", () => {
    expect(mergeLoaded([item("gone"), item("b")], [item("b")], new Set(["gone"]))).toEqual([item("b")]);
  });
});
