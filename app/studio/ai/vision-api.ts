// The studio's typed AI calls (all through the server, which holds the keys and the free quota). Every
// call takes the loop's abort signal so a stopped loop leaves no request behind, and says who asked for
// it: a person ("interactive", waits its turn) or a repeating loop ("loop", skipped when the key is busy).
import { apiRequest } from "../../lib/api-client";
import type { CurrentUser } from "../../schemas/auth";
import type { Box, CallPriority, CountResponse, FreeCalls, Point, Recommendations, Scoreboard } from "../../schemas/vision";

type Sport = "football" | "soccer" | "basketball";

export const visionApi = {
  caption: (imageData: string, storyMode: boolean, signal: AbortSignal | undefined, priority: CallPriority) =>
    apiRequest<{ caption: string }>("POST", "/api/moondream/caption", { imageData, storyMode, priority }, signal),
  point: (imageData: string, object: string, signal: AbortSignal | undefined, priority: CallPriority) =>
    apiRequest<{ points: Point[] }>("POST", "/api/moondream/point", { imageData, object, priority }, signal),
  detect: (body: { imageData: string; object: string; maxObjects: number; confidenceThreshold: number; priority: CallPriority }, signal?: AbortSignal) =>
    apiRequest<{ boxes: Box[] }>("POST", "/api/moondream/detect", body, signal),
  scoreboard: (imageData: string, sport: Sport, signal: AbortSignal | undefined, priority: CallPriority) =>
    apiRequest<{ scoreboard: Scoreboard }>("POST", "/api/moondream/scoreboard", { imageData, sport, priority }, signal),
  count: (body: { imageData: string; sessionId: string | null; useRange: boolean; priority: CallPriority }, signal?: AbortSignal) =>
    apiRequest<CountResponse>("POST", "/api/people-count/count", body, signal),
  assistant: (body: { imageBase64: string; cameraType: string; targetLook: string; intent: string; priority: CallPriority }, signal?: AbortSignal) =>
    apiRequest<{ recommendations: Recommendations }>("POST", "/api/camera-assistant/analyze", body, signal),
  freeCalls: () => apiRequest<FreeCalls>("GET", "/api/moondream/free-calls"),
  saveApiKey: (apiKey: string) => apiRequest<{ hasMoondreamApiKey: boolean }>("POST", "/api/moondream/api-key", { apiKey }),
  me: () => apiRequest<CurrentUser>("GET", "/api/auth/me"),
};
