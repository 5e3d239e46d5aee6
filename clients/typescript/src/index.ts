export { FundingDataClient, type ClientOptions } from "./client.js";
export { FundingDataError, type ApiErrorCode } from "./errors.js";
export type { components, operations, paths } from "./openapi-types.js";
export type { Envelope, PageItem, Query } from "./transport.js";
