// Stories (story-mode sessions) and their captions.
import { z } from "zod";
import { dateTimeSchema, recordingCreateSchema, requiredText, uuidSchema } from "./common";

export const storyCreateSchema = recordingCreateSchema;
export type StoryCreateInput = z.infer<typeof storyCreateSchema>;

export const storyUpdateSchema = z.object({ title: requiredText("Title", 200) });

export const storySchema = z.object({
  id: uuidSchema,
  cameraId: uuidSchema.nullable(),
  cameraName: z.string().nullable(),
  title: z.string(),
  createdAt: dateTimeSchema,
  finishedAt: dateTimeSchema.nullable(),
  featuredPhotoId: uuidSchema.nullable(),
  photoCount: z.number().int(),
  isActive: z.boolean(),
});
export type Story = z.infer<typeof storySchema>;

export const captionCreateSchema = z.object({
  caption: requiredText("Caption", 5000),
  photoId: uuidSchema.nullish(),
});

export const captionSchema = z.object({
  id: uuidSchema,
  caption: z.string(),
  capturedAt: dateTimeSchema,
  photoId: uuidSchema.nullable(),
});
export type StoryCaption = z.infer<typeof captionSchema>;

/** "Story - " + local date-time, as the studio names a story it starts. */
export function defaultStoryTitle(date = new Date()): string {
  return `Story - ${date.toLocaleString()}`;
}
