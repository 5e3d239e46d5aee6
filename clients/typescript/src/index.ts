export { FundingDataClient, type ClientOptions } from "./client.js";
export { FundingDataError, type ApiErrorCode } from "./errors.js";
export type { components, operations, paths } from "./openapi-types.js";
export type { Envelope, PageItem, Query } from "./transport.js";
export { EventStream, type Event, type EventType, type EventTypes, type EventsQuery, type StreamOptions, type StreamQuery } from "./events.js";
export { SseParser, type SseItem, type SseMessage } from "./sse-parser.js";
export {
  verifyWebhook,
  WebhookVerificationError,
  type VerifyWebhookOptions,
  type WebhookHeaders,
  type WebhookVerificationFailure,
} from "./webhook-verifier.js";
