// Caption answers as models really write them (JSON, fenced JSON, markdown, preambles, refusals) become
// the plain prose the studio shows and records; nothing usable becomes "".
import { describe, expect, it } from "vitest";
import { CAPTION_MAX_LENGTH } from "#app/schemas/vision";
import { normaliseCaption } from "./caption";

describe("normaliseCaption", () => {
  it("keeps plain prose as it is, with its whitespace collapsed", () => {
    expect(normaliseCaption("A red square waits in the middle of the frame.")).toBe("A red square waits in the middle of the frame.");
    expect(normaliseCaption("  The stage lights come up slowly.\n\nA red square\twaits,\r\nlit from the left.  ")).toBe(
      "The stage lights come up slowly. A red square waits, lit from the left.",
    );
    // Braces, asterisks and underscores inside ordinary prose are not markup.
    expect(normaliseCaption("A sign reads {OPEN} above a file_name_v2 label; 2 * 3 boxes sit below.")).toBe(
      "A sign reads {OPEN} above a file_name_v2 label; 2 * 3 boxes sit below.",
    );
  });

  it("takes the caption field of a JSON answer, bare or fenced, whatever the key is called", () => {
    expect(normaliseCaption('{"caption": "A lone figure crosses the plaza as dusk settles."}')).toBe("A lone figure crosses the plaza as dusk settles.");
    expect(normaliseCaption('```json\n{\n  "caption": "The workshop hums quietly.",\n  "mood": "calm",\n  "objects": ["bench", "lamp"]\n}\n```')).toBe(
      "The workshop hums quietly.",
    );
    expect(normaliseCaption('Here is the caption:\n```json\n{"story_caption": "Rain streaks the window."}\n```\nLet me know if you want another.')).toBe(
      "Rain streaks the window.",
    );
    expect(normaliseCaption('{"text": "A cat naps on the sill."}')).toBe("A cat naps on the sill.");
    expect(normaliseCaption('{"Description": "Two people talk by the door."}')).toBe("Two people talk by the door.");
    expect(normaliseCaption('{"result": {"caption": "A bus pulls away."}}')).toBe("A bus pulls away.");
    expect(normaliseCaption('{"scene_summary_long": "Morning light fills the kitchen.", "n": 2}')).toBe("Morning light fills the kitchen.");
    expect(normaliseCaption('["The crowd gathers.", "A drummer starts to play."]')).toBe("The crowd gathers. A drummer starts to play.");
    // Single quotes and a trailing comma, as small models write it; and an answer cut off mid-object.
    expect(normaliseCaption("{'caption': 'A kettle starts to steam.',}")).toBe("A kettle starts to steam.");
    expect(normaliseCaption('```json\n{"caption": "A dog chases the ball across')).toBe("A dog chases the ball across");
  });

  it("reduces markdown to its text: headings and list items as sentences, emphasis, code and links unwrapped", () => {
    expect(normaliseCaption("**Caption:** A *quiet* morning in the __workshop__.")).toBe("A quiet morning in the workshop.");
    expect(normaliseCaption("## The Quiet Stage\n\nA red square waits in the middle, lit from the left.")).toBe(
      "The Quiet Stage. A red square waits in the middle, lit from the left.",
    );
    expect(normaliseCaption("### Story Caption\nThe market wakes up.")).toBe("The market wakes up.");
    expect(normaliseCaption("- A red square sits on the bench\n- Blue light spills from the left\n1. A green dot glows")).toBe(
      "A red square sits on the bench. Blue light spills from the left. A green dot glows.",
    );
    expect(normaliseCaption("A poster for [Open Day](https://example.com/open) hangs by ![the door](door.png), next to `EXIT`.")).toBe(
      "A poster for Open Day hangs by the door, next to EXIT.",
    );
    expect(normaliseCaption("> A quiet street.\n\n---\n\n~~Nothing~~ Everything moves.<br/>")).toBe("A quiet street. Nothing Everything moves.");
    expect(normaliseCaption("```\nA plain fenced caption.\n```")).toBe("A plain fenced caption.");
  });

  it("drops a preamble and quotes around the caption", () => {
    expect(normaliseCaption('Sure! Here\'s a vivid caption for your photo story:\n\n"The stage lights come up slowly as a red square waits."')).toBe(
      "The stage lights come up slowly as a red square waits.",
    );
    expect(normaliseCaption("“A heron stands still in the shallows.”")).toBe("A heron stands still in the shallows.");
    // A caption that only starts and ends with quoted speech keeps its quotes.
    expect(normaliseCaption('"Stop!" shouts the guard, and the crowd answers "Never!"')).toBe('"Stop!" shouts the guard, and the crowd answers "Never!"');
  });

  it("answers '' for nothing usable: empty, blank, a placeholder, an empty fence or object", () => {
    for (const answer of ["", "   \n\t ", "N/A", "none", "```\n```", "```json\n{}\n```", "{}", '{"caption": ""}', "[]", "**", "—"]) {
      expect(normaliseCaption(answer), JSON.stringify(answer)).toBe("");
    }
  });

  it("drops refusals, keeping a description that follows one", () => {
    for (const answer of [
      "I'm sorry, but I can't help with identifying people in images.",
      "I’m sorry, I cannot provide a description of this image.",
      "Sorry, I can't see an image in your message.",
      "I cannot determine what is happening in this image.",
      "As an AI, I am not able to view images.",
      "I am unable to describe this scene",
      '{"caption": "I\'m sorry, but I can\'t assist with that request."}',
    ]) {
      expect(normaliseCaption(answer), answer).toBe("");
    }
    expect(normaliseCaption("I'm sorry, I can't identify people. The image shows a man typing at a desk.")).toBe("The image shows a man typing at a desk.");
    // An apology inside a scene is not a refusal.
    expect(normaliseCaption("Unfortunately for the cyclist, the rain starts just as he sets off.")).toBe("Unfortunately for the cyclist, the rain starts just as he sets off.");
  });

  it(`caps a long answer at ${CAPTION_MAX_LENGTH} characters, cut at a word boundary with an ellipsis`, () => {
    const sentence = "The camera drifts across a crowded hall where people gather around long tables. ";
    const capped = normaliseCaption(sentence.repeat(20));
    expect(capped.length).toBeLessThanOrEqual(CAPTION_MAX_LENGTH);
    expect(capped.length).toBeGreaterThan(CAPTION_MAX_LENGTH - 20);
    expect(capped.endsWith("…")).toBe(true);
    const words = capped.slice(0, -1).split(" ");
    for (const word of words) expect(sentence).toContain(word); // no word cut in half
    expect(capped.at(-2)).toMatch(/[a-z]/); // no dangling comma or space before the ellipsis
    // One endless word is cut hard.
    expect(normaliseCaption("A".repeat(2000))).toBe(`${"A".repeat(CAPTION_MAX_LENGTH - 1)}…`);
    // Exactly at the cap: untouched.
    const exact = `${"word ".repeat(99)}word`.slice(0, CAPTION_MAX_LENGTH);
    expect(normaliseCaption(exact)).toBe(exact.trim());
  });
});
