// The browser's AI calls (all through the server, which holds the keys and the free quota). Every call takes the
// loop's abort signal so a stopped loop leaves no request behind, and says who asked for it: a person
// ("interactive", waits its turn) or a repeating loop ("loop", skipped when the key is busy). The studio takes
// captions as one JSON answer: it does not ask for the caption stream (Accept: text/event-stream).
import { api } from "../../schemas/operations";
import type { CallPriority, Sport } from "../../schemas/vision";
import { call, type OperationBody } from "./call";

export const visionApi = {
  caption: (imageData: string, storyMode: boolean, signal: AbortSignal | undefined, priority: CallPriority) =>
    call(api.moondream.caption, { body: { imageData, storyMode, priority }, signal }),
  point: (imageData: string, object: string, signal: AbortSignal | undefined, priority: CallPriority) =>
    call(api.moondream.point, { body: { imageData, object, priority }, signal }),
  detect: (body: OperationBody<typeof api.moondream.detect>, signal?: AbortSignal) => call(api.moondream.detect, { body, signal }),
  /** A question about a frame: local vision's "describe with Moondream". */
  query: (body: OperationBody<typeof api.moondream.query>, signal?: AbortSignal) => call(api.moondream.query, { body, signal }),
  scoreboard: (imageData: string, sport: Sport, signal: AbortSignal | undefined, priority: CallPriority) =>
    call(api.moondream.scoreboard, { body: { imageData, sport, priority }, signal }),
  assistant: (body: OperationBody<typeof api.moondream.analyzeShot>, signal?: AbortSignal) => call(api.moondream.analyzeShot, { body, signal }),
  freeCalls: () => call(api.moondream.freeCalls),
  usage: () => call(api.moondream.usage),
  saveApiKey: (apiKey: string) => call(api.moondream.saveApiKey, { body: { apiKey } }),
  /** What the deployment's Moondream server is known to do (the gallery's edits need segmentation). */
  capabilities: () => call(api.moondream.capabilities),
};
