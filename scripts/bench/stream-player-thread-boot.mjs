// The stream player thread's entry (stream-player-thread.ts): the thread loads TypeScript as the
// bench does, which a new thread does not inherit from `--import tsx`.
import { register } from "tsx/esm/api";

register();
await import("./stream-player-thread-entry.ts");
