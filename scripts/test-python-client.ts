// npm run test:clients (Python part): starts the real /v1 app on a free port over a fresh database
// with seeded keys, then runs the Python client's unittest suite against it (with $PYTHON, default
// python3, so CI can check the oldest supported version too).
import { spawn } from "node:child_process";
import { startClientTestServer } from "@/tests/support/client-test-server";

const server = await startClientTestServer();
try {
  // Asynchronous: the server answers from this process's event loop while Python runs.
  const python = spawn(process.env.PYTHON ?? "python3", ["-m", "unittest", "discover", "-s", "tests", "-v"], {
    cwd: "clients/python",
    stdio: "inherit",
    env: {
      ...process.env,
      PYTHONDONTWRITEBYTECODE: "1",
      FUNDING_DATA_BASE_URL: server.baseUrl,
      FUNDING_DATA_TEST_KEYS: JSON.stringify(server.keys),
      FUNDING_DATA_LIVE_OPPORTUNITIES: String(server.liveOpportunities),
      // Appends events and cuts streams for the push-delivery tests (tests/support/client-test-server.ts).
      FUNDING_DATA_TEST_CONTROL_URL: server.controlUrl,
    },
  });
  process.exitCode = await new Promise<number>((resolve, reject) => {
    python.once("error", reject);
    python.once("exit", (code) => resolve(code ?? 1));
  });
} finally {
  await server.close();
}
