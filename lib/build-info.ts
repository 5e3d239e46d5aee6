import { readFileSync } from "node:fs";
import path from "node:path";

export interface BuildInfo {
  version: string;
  build_id: string | null;
}

let cached: BuildInfo | undefined;

/** The package version and the Next.js build id being served (read once). */
export function buildInfo(): BuildInfo {
  if (cached) return cached;
  const read = (file: string) => {
    try {
      return readFileSync(file, "utf8").trim();
    } catch {
      return null;
    }
  };
  const pkg = read(path.join(process.cwd(), "package.json"));
  cached = {
    version: pkg ? (JSON.parse(pkg) as { version: string }).version : "unknown",
    build_id: read(path.join(process.cwd(), ".next", "BUILD_ID")),
  };
  return cached;
}
