// npm run clients:generate: writes the OpenAPI document and the clients' generated files from the
// /v1 route table. Run it after adding or changing a route; a unit test fails while they are stale.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { clientFiles } from "./clients/client-files";

for (const [file, text] of Object.entries(await clientFiles())) {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  console.log(`wrote ${file}`);
}
