// Building blocks shared by the API schemas: ids, data URLs, list queries.
import { z } from "zod";

export const uuidSchema = z.string().uuid();

/** A trimmed, required text with the field's name in its messages. */
export function requiredText(label: string, max: number) {
  return z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(max, `${label} must be at most ${max} characters`);
}

/** An image sent inline as a data URL; its real format and size are checked by the image-intake module. */
export const imageDataUrlSchema = z
  .string({ error: "Image data is required" })
  .regex(/^data:[\w.+-]+\/[\w.+-]+;base64,/i, "Image data must be a base64 data URL (data:image/jpeg;base64,...)");

export const dateTimeSchema = z.string().datetime({ offset: true });

/** A new story or people-counting session: the camera it records (with its name, kept if the camera goes) and a title. */
export const recordingCreateSchema = z.object({
  cameraId: uuidSchema.nullish(),
  cameraName: z.string().trim().max(100).nullish(),
  title: z.string().trim().max(200, "Title must be at most 200 characters").nullish(),
});

/** `?limit=&cursor=` for newest-first lists. */
export const pageParamsSchema = z.object({
  limit: z.coerce
    .number({ error: "limit must be a number" })
    .int("limit must be a whole number")
    .min(1, "limit must be at least 1")
    .max(200, "limit must be at most 200")
    .default(50),
  cursor: z.string().max(200, "cursor is not valid").optional(),
});

/**
 * A query parameter naming several values: repeated (`?cameraId=a&cameraId=b`, which the API hands over as a list) or
 * a comma list (`?cameraId=a,b`), or both; at most `max` of them, each checked by `item`.
 */
export const listQueryParam = <T extends z.ZodType<unknown, string>>(item: T, max: number, what: string) =>
  z
    .union([z.string(), z.array(z.string())])
    .transform((value) =>
      (Array.isArray(value) ? value : [value])
        .flatMap((part) => part.split(","))
        .map((part) => part.trim())
        .filter(Boolean),
    )
    .pipe(z.array(item).max(max, `At most ${max} ${what}`));

export const booleanQuerySchema = z.enum(["true", "false"], { error: "must be true or false" }).transform((value) => value === "true");
