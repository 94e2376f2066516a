// The studio's typed AI calls (all through the server, which holds the keys and the free quota). Every
// call takes the loop's abort signal so a stopped loop leaves no request behind.
import { apiRequest } from "../../lib/api-client";
import type { CurrentUser } from "../../schemas/auth";
import type { Box, CountResponse, Point, Recommendations, Scoreboard } from "../../schemas/vision";

type Sport = "football" | "soccer" | "basketball";

export const visionApi = {
  caption: (imageData: string, storyMode: boolean, signal?: AbortSignal) =>
    apiRequest<{ caption: string }>("POST", "/api/moondream/caption", { imageData, storyMode }, signal),
  point: (imageData: string, object: string, signal?: AbortSignal) => apiRequest<{ points: Point[] }>("POST", "/api/moondream/point", { imageData, object }, signal),
  detect: (body: { imageData: string; object: string; maxObjects: number; confidenceThreshold: number }, signal?: AbortSignal) =>
    apiRequest<{ boxes: Box[] }>("POST", "/api/moondream/detect", body, signal),
  scoreboard: (imageData: string, sport: Sport, signal?: AbortSignal) =>
    apiRequest<{ scoreboard: Scoreboard }>("POST", "/api/moondream/scoreboard", { imageData, sport }, signal),
  count: (body: { imageData: string; sessionId: string | null; useRange: boolean }, signal?: AbortSignal) =>
    apiRequest<CountResponse>("POST", "/api/people-count/count", body, signal),
  assistant: (body: { imageBase64: string; cameraType: string; targetLook: string; intent: string }, signal?: AbortSignal) =>
    apiRequest<{ recommendations: Recommendations }>("POST", "/api/camera-assistant/analyze", body, signal),
  saveApiKey: (apiKey: string) => apiRequest<{ hasMoondreamApiKey: boolean }>("POST", "/api/moondream/api-key", { apiKey }),
  me: () => apiRequest<CurrentUser>("GET", "/api/auth/me"),
};
