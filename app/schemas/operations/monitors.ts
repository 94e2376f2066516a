// The monitors operations of the catalogue (see ./define.ts): analysis the server runs on an IP camera.
import { z } from "zod";
import { monitorCreateSchema, monitorSchema, monitorUpdateSchema } from "../monitors";
import { defineOperation, noContent } from "./define";

export const monitors = {
  list: defineOperation({
    method: "get",
    path: "/api/monitors",
    summary: "Monitors, oldest first, with their state and last result",
    tag: "Monitors",
    access: "user",
    success: { status: 200, schema: z.array(monitorSchema) },
  }),
  create: defineOperation({
    method: "post",
    path: "/api/monitors",
    summary: "Start a monitor on one of the user's IP cameras (it runs at once)",
    tag: "Monitors",
    access: "user",
    body: monitorCreateSchema,
    success: { status: 201, schema: monitorSchema },
    errors: [400, 409, 422],
  }),
  get: defineOperation({
    method: "get",
    path: "/api/monitors/{id}",
    summary: "One monitor",
    tag: "Monitors",
    access: "user",
    success: { status: 200, schema: monitorSchema },
    errors: [404],
  }),
  update: defineOperation({
    method: "patch",
    path: "/api/monitors/{id}",
    summary: "Rename a monitor or change its settings (the next tick uses them)",
    tag: "Monitors",
    access: "user",
    body: monitorUpdateSchema,
    success: { status: 200, schema: monitorSchema },
    errors: [400, 404, 422],
  }),
  remove: defineOperation({
    method: "delete",
    path: "/api/monitors/{id}",
    summary: "Delete a monitor (its story or counting session is finished)",
    tag: "Monitors",
    access: "user",
    success: noContent,
    errors: [404],
  }),
  pause: defineOperation({
    method: "post",
    path: "/api/monitors/{id}/pause",
    summary: "Pause a monitor (a tick under way finishes)",
    tag: "Monitors",
    access: "user",
    success: { status: 200, schema: monitorSchema },
    errors: [404],
  }),
  resume: defineOperation({
    method: "post",
    path: "/api/monitors/{id}/resume",
    summary: "Resume a paused, stopped or failing monitor now",
    tag: "Monitors",
    access: "user",
    success: { status: 200, schema: monitorSchema },
    errors: [404],
  }),
};
