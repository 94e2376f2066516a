import { describe, expect, it } from "vitest";
import { MARK_START, MARK_STOP } from "./queries";
import { highlightSegments } from "./service";

describe("highlightSegments", () => {
  it("cuts ts_headline's marks into plain text segments", () => {
    expect(highlightSegments(`A ${MARK_START}dog${MARK_STOP} at the ${MARK_START}door${MARK_STOP}`)).toEqual([
      { text: "A ", match: false },
      { text: "dog", match: true },
      { text: " at the ", match: false },
      { text: "door", match: true },
    ]);
    expect(highlightSegments("no match here")).toEqual([{ text: "no match here", match: false }]);
    expect(highlightSegments("")).toEqual([]);
  });
});
