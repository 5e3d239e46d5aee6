// The limiter's public surface. Store implementations that load client libraries (ioredis,
// @upstash/*) are deliberately not re-exported: createRateLimiter imports them on demand.
export { createRateLimiter, type CreateRateLimiterOptions, type RateLimiterEnv } from "./create-rate-limiter";
export { MemoryRateLimiter } from "./memory-rate-limiter";
export { rateLimitHeaders, type RateLimitResponseFields } from "./rate-limit-headers";
export type { RateLimitAlgorithm, RateLimiter, RateLimiterService, RateLimitResult, RateLimitStatus, RateLimitStore } from "./types";
