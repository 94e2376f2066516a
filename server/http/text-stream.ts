// Streams a model's answer to the browser as Server-Sent Events: `chunk` events as text arrives, then
// `done` with the result, or `problem` with a problem body if it fails midway. A failure before the first
// chunk is thrown instead, so it leaves as an ordinary problem response with its real status.
import { logger } from "../logger";
import { ProblemError } from "../errors";
import { problemBody } from "./problem";

const encoder = new TextEncoder();

export async function textEventStream<T>(run: (onChunk: (text: string) => void) => Promise<T>): Promise<Response> {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const stream = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
  const write = (event: string, data: unknown) => {
    try {
      controller.enqueue(encoder.encode(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`));
    } catch {
      // the browser went away; the call is aborted through the request's signal
    }
  };
  let markStarted!: () => void;
  const started = new Promise<void>((resolve) => (markStarted = resolve));
  const result = run((text) => {
    write("chunk", { chunk: text });
    markStarted();
  });
  await Promise.race([started, result]);
  void result
    .then(
      (value) => write("done", value),
      (error: unknown) => {
        if (!(error instanceof ProblemError)) logger.error({ err: error }, "streamed answer failed");
        write(
          "problem",
          error instanceof ProblemError ? problemBody(error.status, error.message) : problemBody(500, "Something went wrong on our side; the error has been logged"),
        );
      },
    )
    .finally(() => {
      try {
        controller.close();
      } catch {
        // already closed
      }
    });
  return new Response(stream, { headers: { "Content-Type": "text/event-stream; charset=utf-8", "Cache-Control": "no-store, no-transform", "X-Accel-Buffering": "no" } });
}
