import { AsyncLocalStorage } from "node:async_hooks";
import { processSingleton } from "@/lib/singleton";

/**
 * What a log line says about the request it was written under. `account` is read when a line is
 * written, not when the request starts: the /v1 app learns the key's account only once the key is
 * verified, and lines written before that carry the request id alone.
 */
export interface RequestContext {
  requestId: string;
  readonly account?: string;
}

// One store per process: server.ts's copy of lib/ opens the context and Next's copy (the web app's
// JSON routes) may write the lines (lib/singleton.ts).
const storage = processSingleton("request-context", () => new AsyncLocalStorage<RequestContext>());

/** Runs `work` with `context` as the request every log line written under it belongs to. */
export function runInRequestContext<T>(context: RequestContext, work: () => T): T {
  return storage.run(context, work);
}

/** The request the current code runs for, if any. */
export function currentRequestContext(): RequestContext | undefined {
  return storage.getStore();
}
