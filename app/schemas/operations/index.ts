// The catalogue of every /api operation, grouped by resource (`api.stories.list`), and the same as one flat list
// for the OpenAPI document and the test that checks it against the real route table both ways.
import { accounts } from "./accounts";
import { admin } from "./admin";
import { alerts } from "./alerts";
import { cameras } from "./cameras";
import type { Operation } from "./define";
import { featureRequests } from "./feature-requests";
import { insightSharing } from "./insight-sharing";
import { insights } from "./insights";
import { localDetector } from "./local-detector";
import { localVision } from "./local-vision";
import { luts } from "./luts";
import { meta } from "./meta";
import { monitors } from "./monitors";
import { moondream } from "./moondream";
import { peopleCount } from "./people-count";
import { photos } from "./photos";
import { presets } from "./presets";
import { ptz } from "./ptz";
import { savedSearches } from "./saved-searches";
import { scoreboard } from "./scoreboard";
import { stories } from "./stories";
import { webhooks } from "./webhooks";
import { timeline } from "./timeline";

export const api = {
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
  localDetector,
  insights,
  insightSharing,
  moondream,
  scoreboard,
  meta,
  timeline,
  savedSearches,
};

/** Every operation with its catalogue id ("stories.list"), in document order. */
export const operations: (Operation & { id: string })[] = Object.entries(api).flatMap(([group, members]) =>
  Object.entries(members as Record<string, Operation>).map(([name, operation]) => ({ ...operation, id: `${group}.${name}` })),
);

export type { Access, Method, Operation, OperationOutput, PathParams } from "./define";
