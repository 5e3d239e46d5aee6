// vitest's setup file (vitest.config.ts): the service's log lines stay out of the test output, unless
// LOG_LEVEL asks for them. Tests that assert on a line capture it (capture-logs.ts). Processes a test
// spawns (a server, the worker) log as usual, into the output the test keeps for its failure messages.
import { setLogLevel } from "@/lib/observability/logger";

if (!process.env.LOG_LEVEL) setLogLevel("silent");
