import { AsyncLocalStorage } from "node:async_hooks";
import { processSingleton } from "@/lib/singleton";

/**
 * What a log line says about the request it was written under. `account` is filled in once known:
 * the /v1 app learns the key's account only once the key is verified, and lines written before that
 * carry the request id alone. Plain values only: the store travels with every promise and timer made
 * under the request, so anything it referenced (a Hono context and its response body) would live as
 * long as they do and be promoted out of the young generation.
 */
export interface RequestContext {
  readonly requestId: string;
  account?: string;
}

// One store per process: server.ts's copy of lib/ opens the context and Next's copy (the web app's
// JSON routes) may write the lines (lib/singleton.ts).
const storage = processSingleton("request-context", () => new AsyncLocalStorage<RequestContext>());

/** Runs `work` with `context` as the request every log line written under it belongs to. */
export function runInRequestContext<T>(context: RequestContext, work: () => T): T {
  return storage.run(context, work);
}

/** Names the account the current request acts for, in the lines written from here on. */
export function setRequestAccount(account: string): void {
  const context = storage.getStore();
  if (context) context.account = account;
}

/** The request the current code runs for, if any. */
export function currentRequestContext(): RequestContext | undefined {
  return storage.getStore();
}
