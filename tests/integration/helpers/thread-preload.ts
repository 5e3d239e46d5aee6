// A preload for a VenueThread's thread in tests (VenueThreadSetup.preloads): marks the thread's
// global scope, which thread-venue-fetcher.ts checks when told to.
(globalThis as { threadPreloaded?: boolean }).threadPreloaded = true;
