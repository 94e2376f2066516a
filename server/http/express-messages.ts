// node:http makes each request and response with the Express app's prototypes from the start, so nothing swaps them
// per request (docs/decisions/0007-api-fast-path.md, "What survived the scavenges").
//
// Express's app.handle (and the API fast path, doing what it does) gives Node's request and response the app's
// prototypes with Object.setPrototypeOf on every request. V8 then gave every request and response hidden classes of
// their own (new maps, made in the old generation, for each object), and most of what a request allocated survived
// the young generation's collections, to be promoted and freed only by full collections: scavenges of 3–6 ms
// keeping ~5 MB each, and over half of a small API request's CPU. Objects made by subclasses (real classes: a
// plain function as new.target gave a new map per object too) share their hidden classes, and Express's own
// setPrototypeOf, given the prototype the object already has, changes nothing.
import { IncomingMessage, ServerResponse } from "node:http";

/**
 * The classes to make the server with (createServer's IncomingMessage and ServerResponse options): subclasses of
 * Node's whose prototypes inherit the app's request and response, and which become the app's `request` and
 * `response`, so every Express helper (and `req.app`) is found as before.
 */
export function expressMessages(app: { request: object; response: object }): { IncomingMessage: typeof IncomingMessage; ServerResponse: typeof ServerResponse } {
  class AppRequest extends IncomingMessage {}
  class AppResponse<Request extends IncomingMessage = IncomingMessage> extends ServerResponse<Request> {}
  Object.setPrototypeOf(AppRequest.prototype, app.request);
  Object.setPrototypeOf(AppResponse.prototype, app.response);
  app.request = AppRequest.prototype;
  app.response = AppResponse.prototype;
  return { IncomingMessage: AppRequest, ServerResponse: AppResponse };
}
