// The studio's typed calls to the JSON API (all through the spec's request helper).
import { apiFetch, apiRequest } from "../lib/api-client";
import type { Camera } from "../schemas/cameras";
import type { CountSession, CountSnapshot } from "../schemas/people-count";
import type { CaptureMode, DetectionBox, Photo } from "../schemas/photos";
import type { Story, StoryCaption } from "../schemas/stories";

export interface NewPhoto {
  cameraId: string | null;
  imageData: string;
  captureMode: CaptureMode;
  storyId?: string | null;
  videoWidth?: number | null;
  videoHeight?: number | null;
  frameRate?: number | null;
  detectionQuery?: string | null;
  detectionBoxes?: DetectionBox[] | null;
  autoCapture?: boolean;
}

export const studioApi = {
  cameras: {
    list: () => apiRequest<Camera[]>("GET", "/api/cameras"),
    create: (body: { name: string; model: string; status: string; deviceId?: string | null; deviceLabel?: string | null; thumbnail?: string | null }) => apiRequest<Camera>("POST", "/api/cameras", body),
    rename: (id: string, name: string) => apiRequest<Camera>("PUT", `/api/cameras/${id}`, { name }),
    setThumbnail: (id: string, thumbnail: string) => apiRequest<Camera>("PUT", `/api/cameras/${id}`, { thumbnail }),
    setVideo: (id: string, body: { videoWidth: number; videoHeight: number; frameRate: number }) => apiRequest<Camera>("PATCH", `/api/cameras/${id}`, body),
    remove: (id: string) => apiRequest<void>("DELETE", `/api/cameras/${id}`),
  },
  photos: {
    list: async (params: { limit?: number; cursor?: string | null; storyId?: string } = {}) => {
      const query = new URLSearchParams();
      if (params.limit) query.set("limit", String(params.limit));
      if (params.cursor) query.set("cursor", params.cursor);
      if (params.storyId) query.set("storyId", params.storyId);
      const response = await apiFetch("GET", `/api/photos?${query.toString()}`);
      return { items: (await response.json()) as Photo[], nextCursor: response.headers.get("x-next-cursor") };
    },
    create: (body: NewPhoto) => apiRequest<Photo>("POST", "/api/photos", body),
    get: (id: string) => apiRequest<Photo & { imageData: string }>("GET", `/api/photos/${id}`),
    remove: (id: string) => apiRequest<void>("DELETE", `/api/photos/${id}`),
  },
  stories: {
    list: () => apiRequest<Story[]>("GET", "/api/stories"),
    get: (id: string) => apiRequest<Story>("GET", `/api/stories/${id}`),
    create: (body: { cameraId: string | null; cameraName: string | null; title?: string }) => apiRequest<Story>("POST", "/api/stories", body),
    rename: (id: string, title: string) => apiRequest<Story>("PATCH", `/api/stories/${id}`, { title }),
    finish: (id: string) => apiRequest<Story>("POST", `/api/stories/${id}/finish`),
    captions: (id: string) => apiRequest<StoryCaption[]>("GET", `/api/stories/${id}/captions`),
    addCaption: (id: string, caption: string, photoId: string | null) => apiRequest<StoryCaption>("POST", `/api/stories/${id}/captions`, { caption, photoId }),
    photos: (id: string) => apiRequest<Photo[]>("GET", `/api/stories/${id}/photos`),
  },
  counting: {
    sessions: () => apiRequest<CountSession[]>("GET", "/api/people-count/sessions"),
    session: (id: string) => apiRequest<CountSession>("GET", `/api/people-count/sessions/${id}`),
    create: (body: { cameraId: string | null; cameraName: string | null; title?: string }) => apiRequest<CountSession>("POST", "/api/people-count/sessions", body),
    finish: (id: string) => apiRequest<CountSession>("POST", `/api/people-count/sessions/${id}/finish`),
    snapshots: (id: string) => apiRequest<CountSnapshot[]>("GET", `/api/people-count/sessions/${id}/snapshots`),
    correct: (snapshotId: string, body: { correctedCount: number; correctedCountMin: number | null; correctedCountMax: number | null; sessionId: string }) =>
      apiRequest<CountSnapshot>("PATCH", `/api/people-count/snapshots/${snapshotId}`, body),
  },
  featureRequests: {
    create: (title: string, description: string) => apiRequest("POST", "/api/feature-requests", { title, description }),
  },
};
