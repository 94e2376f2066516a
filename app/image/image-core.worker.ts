// The image-core Web Worker: the WASM core behind Comlink, for the browser's CPU path.
//
// Comlink.expose() runs synchronously at module start and every method awaits the WASM inside:
// awaiting the instantiation at top level first would delay expose() and the page's first
// messages would be lost (their calls never resolve), as stack-notes.md warns.
import * as Comlink from "comlink";
import { createImageCoreWorkerApi } from "./image-core-worker-api";
import { imageCoreForParsing, loadImageCore } from "./load-image-core";

Comlink.expose(createImageCoreWorkerApi(loadImageCore, imageCoreForParsing));
