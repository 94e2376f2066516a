// Every resource's handlers, by catalogue group: what app/routes/api.ts hands the dispatcher.
export { accounts } from "./accounts";
export { admin } from "./admin";
export { alerts } from "./alerts";
export { cameras } from "./cameras";
export { featureRequests } from "./feature-requests";
export { localVision } from "./local-vision";
export { luts } from "./luts";
export { meta } from "./meta";
export { monitors } from "./monitors";
export { moondream } from "./moondream";
export { peopleCount } from "./people-count";
export { photos } from "./photos";
export { presets } from "./presets";
export { ptz } from "./ptz";
export { scoreboard } from "./scoreboard";
export { stories } from "./stories";
export { webhooks } from "./webhooks";
