// A VenueThread's entry: the thread loads TypeScript as the process that starts it does (the
// worker runs through tsx), which a new thread does not inherit from `--import tsx`.
import { register } from "tsx/esm/api";

register();
await import("./venue-thread-entry.ts");
