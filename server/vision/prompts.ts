// What the studio asks Moondream. Answers come back as free text, so each prompt names the exact shape
// wanted and the parsers still accept the shapes models really produce.
import type { Sport } from "#db/schema";

export const STORY_CAPTION_QUESTION =
  "Describe this moment as one vivid, narrative caption for a photo story: two or three sentences about who or what is there, what is happening and the mood. Describe only what you can see.";

export function scoreboardQuestion(sport: Sport): string {
  const period = sport === "soccer" ? "the half (1 or 2)" : "the quarter (1 to 4, or OT)";
  return [
    `Read the ${sport} scoreboard in this image.`,
    'Answer with only a JSON object: {"homeTeam": string, "homeScore": number, "awayTeam": string, "awayScore": number, "period": string, "timeRemaining": string}.',
    `period is ${period}; timeRemaining is the game clock as shown (for example "12:34").`,
    "Use null for anything you cannot read clearly. Do not guess.",
  ].join(" ");
}

export const COUNT_RANGE_QUESTION =
  "How many people are in this image? If you are not sure of the exact number, answer with a low-high range such as 8-12. Answer with only the number or the range.";

export function assistantQuestion(input: { cameraType: string; targetLook: string; intent: string }): string {
  return [
    "You are a camera operator's assistant. Look at this shot and give practical advice to reach the target look.",
    input.cameraType ? `Camera: ${input.cameraType}.` : "",
    `Target look: ${input.targetLook}.`,
    input.intent ? `What the operator wants: ${input.intent}.` : "",
    'Answer with only a JSON object with the keys "exposure", "whiteBalance", "focus", "lighting" and "overall";',
    'each value is {"tip": one short sentence, "detail": two or three sentences explaining what to change and why}.',
  ]
    .filter(Boolean)
    .join(" ");
}
