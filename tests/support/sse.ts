// Reads a Server-Sent Events response in tests: each event in turn, waiting on the stream (never sleeping).
import { EventSourceParserStream, type EventSourceMessage } from "eventsource-parser/stream";

export interface EventReader {
  response: Response;
  /** The next event, or a rejection when none arrives within `timeoutMs` or the stream ends. */
  next(timeoutMs?: number): Promise<EventSourceMessage>;
  close(): void;
}

export async function openEvents(url: string, init: RequestInit = {}): Promise<EventReader> {
  const controller = new AbortController();
  const response = await fetch(url, { ...init, signal: controller.signal });
  const reader = response.body!.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream()).getReader();
  return {
    response,
    async next(timeoutMs = 5_000) {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no event within ${timeoutMs} ms`)), timeoutMs)));
      try {
        const { done, value } = await Promise.race([reader.read(), timeout]);
        if (done) throw new Error("the event stream ended");
        return value;
      } finally {
        clearTimeout(timer);
      }
    },
    close: () => controller.abort(),
  };
}
