// Every /api request lands here (app/routes.ts generates a route per catalogue path, plus the splat): the one
// dispatcher finds the operation in the catalogue and calls its handler. A resource's handlers live in
// ./api/<resource>.ts, one per catalogue entry; adding an operation is a catalogue entry and its handler.
import { apiDispatcher } from "#server/http/api";
import { api } from "../schemas/operations/index";
import * as handlers from "./api/index";

export const loader = apiDispatcher(api, handlers);
export const action = loader;
