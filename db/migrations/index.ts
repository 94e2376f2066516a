// Every migration, in order. Add new ones here: an explicit list works the same in Vite, Vitest and tsx.
import type { Migration } from "kysely";
import * as accounts from "./0001-accounts";
import * as studioData from "./0002-studio-data";
import * as vision from "./0003-vision";
import * as automation from "./0004-automation";
import * as webhookDeliveryQueue from "./0005-webhook-delivery-queue";
import * as cameraDeviceLabel from "./0006-camera-device-label";
import * as authHardening from "./0007-auth-hardening";
import * as sharedKeyPacing from "./0008-shared-key-pacing";
import * as ipCameras from "./0009-ip-cameras";
import * as monitorLeases from "./0011-monitor-leases";
import * as localVision from "./0012-local-vision";
import * as localVisionEvents from "./0013-local-vision-events";
import * as visionEventBatches from "./0014-vision-event-batches";
import * as monitorLeaseHolder from "./0015-monitor-lease-holder";
import * as cameraPtzChecking from "./0016-camera-ptz-checking";
import * as detectorModels from "./0017-detector-models";
import * as cameraWatches from "./0018-camera-watches";
import * as localMonitors from "./0019-local-monitors";
import * as watchFollow from "./0020-watch-follow";
import * as insights from "./0021-insights";
import * as visionHeat from "./0022-vision-heat";
import * as timeline from "./0023-timeline";
import * as search from "./0024-search";
import * as photoEdits from "./0025-photo-edits";
import * as siteHours from "./0026-site-hours";

export const migrations: Record<string, Migration> = {
  "0001-accounts": accounts,
  "0002-studio-data": studioData,
  "0003-vision": vision,
  "0004-automation": automation,
  "0005-webhook-delivery-queue": webhookDeliveryQueue,
  "0006-camera-device-label": cameraDeviceLabel,
  "0007-auth-hardening": authHardening,
  "0008-shared-key-pacing": sharedKeyPacing,
  "0009-ip-cameras": ipCameras,
  "0011-monitor-leases": monitorLeases,
  "0012-local-vision": localVision,
  "0013-local-vision-events": localVisionEvents,
  "0014-vision-event-batches": visionEventBatches,
  "0015-monitor-lease-holder": monitorLeaseHolder,
  "0016-camera-ptz-checking": cameraPtzChecking,
  "0017-detector-models": detectorModels,
  "0018-camera-watches": cameraWatches,
  "0019-local-monitors": localMonitors,
  "0020-watch-follow": watchFollow,
  "0021-insights": insights,
  "0022-vision-heat": visionHeat,
  "0023-timeline": timeline,
  "0024-search": search,
  "0025-photo-edits": photoEdits,
  "0026-site-hours": siteHours,
};
