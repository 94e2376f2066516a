// Webhook delivery (secret, test, delivery log) and alerts (contacts, rules): shared by client and server.
import { z } from "zod";

export const webhookSecretSchema = z.object({ secret: z.string() });
export type WebhookSecret = z.infer<typeof webhookSecretSchema>;

export const webhookTestResultSchema = z.object({
  success: z.boolean(),
  /** The receiver's HTTP status, or null when none answered (refused address, timeout, connection error). */
  receiverStatus: z.number().int().nullable(),
  /** "Test successful", or the reason it failed. */
  message: z.string(),
  deliveryId: z.string(),
});
export type WebhookTestResult = z.infer<typeof webhookTestResultSchema>;

export const deliveryStatusSchema = z.enum(["pending", "retrying", "delivered", "failed", "cancelled"]);

export const webhookDeliverySchema = z.object({
  id: z.string(),
  event: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  status: deliveryStatusSchema,
  attempts: z.number().int(),
  responseStatus: z.number().int().nullable(),
  lastError: z.string().nullable(),
  nextAttemptAt: z.string().nullable(),
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;

export const webhookDeliveriesSchema = z.object({
  deliveries: z.array(webhookDeliverySchema),
  /** Set when delivery switched the webhook off (410 Gone or a long failure run). */
  disabled: z.object({ reason: z.string(), at: z.string() }).nullable(),
});
export type WebhookDeliveries = z.infer<typeof webhookDeliveriesSchema>;

export const alertChannelSchema = z.enum(["email", "sms"], { error: "channel must be email or sms" });
export type AlertChannel = z.infer<typeof alertChannelSchema>;

export const alertContactSchema = z.object({
  channel: alertChannelSchema,
  address: z.string(),
  verified: z.boolean(),
  /** True while a code was sent and not yet confirmed. */
  pending: z.boolean(),
});
export type AlertContact = z.infer<typeof alertContactSchema>;

export const alertStatusSchema = z.object({
  emailAvailable: z.boolean(),
  smsAvailable: z.boolean(),
  contacts: z.array(alertContactSchema),
});
export type AlertStatus = z.infer<typeof alertStatusSchema>;

const emailSchema = z.string().trim().max(254).email("Enter a valid e-mail address");
/** E.164: + then up to 15 digits; spaces, dashes and brackets people type are removed first. */
const phoneSchema = z
  .string()
  .trim()
  .transform((value) => value.replace(/[\s().-]/g, ""))
  .pipe(z.string().regex(/^\+[1-9]\d{6,14}$/, "Enter the number in international form, e.g. +14155550123"));

export const contactStartSchema = z.discriminatedUnion(
  "channel",
  [z.object({ channel: z.literal("email"), address: emailSchema }), z.object({ channel: z.literal("sms"), address: phoneSchema })],
  { error: "channel must be email or sms" },
);
export type ContactStart = z.infer<typeof contactStartSchema>;

export const contactVerifySchema = z.object({
  channel: alertChannelSchema,
  code: z
    .string()
    .trim()
    .regex(/^\d{6}$/, "Enter the 6-digit code"),
});

/** detection and people_count rules watch Moondream's answers; the others the studio's local-vision events (object: the class, or any). */
export const ALERT_RULE_KINDS = ["detection", "people_count", "line_crossed", "zone_entered", "zone_exited", "zone_loitering"] as const;
export const alertRuleKindSchema = z.enum(ALERT_RULE_KINDS, { error: `kind must be one of ${ALERT_RULE_KINDS.join(", ")}` });
export type AlertRuleKind = z.infer<typeof alertRuleKindSchema>;

export const alertRuleInputSchema = z
  .object({
    kind: alertRuleKindSchema,
    object: z.string().trim().max(100, "object must be at most 100 characters").nullish(),
    threshold: z.number().int("threshold must be a whole number").min(0).max(10_000).nullish(),
    targetId: z.guid("targetId must be a line's or zone's id").nullish().describe("local-vision rules: the one line (line_crossed) or zone watched; none: any"),
    email: z.boolean(),
    sms: z.boolean(),
    cooldownMinutes: z
      .number()
      .min(1, "cooldown must be at least 1 minute")
      .max(24 * 60, "cooldown must be at most a day")
      .default(5),
    enabled: z.boolean().default(true),
  })
  .superRefine((rule, ctx) => {
    if (rule.kind === "detection" && !rule.object) ctx.addIssue({ code: "custom", path: ["object"], message: "Name the object to watch for" });
    if (rule.kind === "people_count" && (rule.threshold === null || rule.threshold === undefined))
      ctx.addIssue({ code: "custom", path: ["threshold"], message: "Set the number of people" });
    if (rule.targetId && (rule.kind === "detection" || rule.kind === "people_count"))
      ctx.addIssue({ code: "custom", path: ["targetId"], message: "Only line and zone rules watch a line or zone" });
    if (!rule.email && !rule.sms) ctx.addIssue({ code: "custom", path: ["email"], message: "Choose e-mail, SMS or both" });
  });
export type AlertRuleInput = z.infer<typeof alertRuleInputSchema>;

export const alertRuleSchema = z.object({
  id: z.string(),
  kind: alertRuleKindSchema,
  object: z.string().nullable(),
  threshold: z.number().int().nullable(),
  targetId: z.string().nullable(),
  target: z
    .object({ name: z.string(), cameraId: z.string(), cameraName: z.string() })
    .nullable()
    .describe("the watched line or zone with its camera (null: any line or zone, or the one watched was deleted)"),
  email: z.boolean(),
  sms: z.boolean(),
  cooldownMinutes: z.number(),
  enabled: z.boolean(),
  lastFiredAt: z.string().nullable(),
  createdAt: z.string(),
});
export type AlertRule = z.infer<typeof alertRuleSchema>;
