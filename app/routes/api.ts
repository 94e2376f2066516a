// Every /api request lands here (app/routes.ts generates a route per catalogue path, plus the splat): the one
// dispatcher finds the operation in the catalogue and calls its handler. A resource's handlers live in
// ./api/<resource>.ts, one per catalogue entry; adding an operation is a catalogue entry and its handler.
import { apiDispatcher } from "#server/http/api";
import { api } from "../schemas/operations/index";
import { accounts } from "./api/accounts";
import { admin } from "./api/admin";
import { alerts } from "./api/alerts";
import { cameras } from "./api/cameras";
import { featureRequests } from "./api/feature-requests";
import { localVision } from "./api/local-vision";
import { luts } from "./api/luts";
import { meta } from "./api/meta";
import { monitors } from "./api/monitors";
import { moondream } from "./api/moondream";
import { peopleCount } from "./api/people-count";
import { photos } from "./api/photos";
import { presets } from "./api/presets";
import { ptz } from "./api/ptz";
import { scoreboard } from "./api/scoreboard";
import { stories } from "./api/stories";
import { webhooks } from "./api/webhooks";

export const loader = apiDispatcher(api, {
  accounts,
  admin,
  featureRequests,
  cameras,
  presets,
  ptz,
  photos,
  stories,
  peopleCount,
  luts,
  webhooks,
  alerts,
  monitors,
  localVision,
  moondream,
  scoreboard,
  meta,
});
export const action = loader;
