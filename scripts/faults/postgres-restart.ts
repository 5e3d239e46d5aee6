// Scenario c: PostgreSQL restarted (`pg_ctl restart -m fast`) while requests keep coming. Every
// answer must arrive before its deadline and be JSON (a success, or a 500/503 error envelope), and
// the same server process must answer successfully again within RECOVERY_S of the restart.
import { spawn } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { isErrorEnvelope, request, sleep, withDeskServer, type Answer, type FaultEnv } from "./harness";
import { Report } from "./report";

const RECOVERY_S = 15;
const REQUEST_TIMEOUT_MS = 10_000;
const LOOPS = 4;

/** The cluster behind `url`, if it runs on this machine: its data directory and pg_ctl. */
async function localCluster(url: string): Promise<{ dataDir: string; pgCtl: string } | string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const dataDir = (await client.query<{ data_directory: string }>("SHOW data_directory")).rows[0]!.data_directory;
    const major = Math.floor(Number((await client.query<{ server_version_num: string }>("SHOW server_version_num")).rows[0]!.server_version_num) / 10_000);
    const pgCtl = `/usr/lib/postgresql/${major}/bin/pg_ctl`;
    if (!existsSync(`${dataDir}/postmaster.pid`)) return `the server's data directory ${dataDir} is not on this machine`;
    if (!existsSync(pgCtl)) return `${pgCtl} not found`;
    return { dataDir, pgCtl };
  } finally {
    await client.end();
  }
}

/** `pg_ctl restart -m fast`, as the data directory's owner (runuser when we are root). */
function restartCluster(cluster: { dataDir: string; pgCtl: string }): Promise<{ code: number | null; output: string }> {
  // pg_ctl restart reuses the options the server was started with (postmaster.opts). Its log goes to
  // a file: left on our pipe, the server would write to a closed pipe once this run ends.
  const args = ["-D", cluster.dataDir, "-m", "fast", "-w", "-t", "60", "-l", path.join(cluster.dataDir, "fods-faults-restart.log"), "restart"];
  const asOwner = process.getuid?.() === statSync(cluster.dataDir).uid;
  const child = asOwner
    ? spawn(cluster.pgCtl, args, { stdio: ["ignore", "pipe", "pipe"] })
    : spawn("runuser", ["-u", "postgres", "--", cluster.pgCtl, ...args], { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (c: Buffer) => (output += c.toString()));
  child.stderr.on("data", (c: Buffer) => (output += c.toString()));
  return new Promise((resolve) => child.once("exit", (code) => resolve({ code, output })));
}

interface Sample extends Answer {
  path: string;
  at: number;
}

export async function postgresRestart(env: FaultEnv): Promise<Report> {
  const report = new Report("c. PostgreSQL restarted under load");
  const cluster = await localCluster(env.databaseUrl);
  if (typeof cluster === "string") {
    report.check("a local PostgreSQL this run may restart", false, cluster);
    return report;
  }
  await withDeskServer(env, async ({ opportunities, desk, server }) => {
    const base = server.url;
    const auth = { authorization: `Bearer ${desk.secret}` };
    let n = 0;
    // Database reads and writes, an in-memory read, and the health check, round-robin.
    const next = (): Promise<Answer> => {
      const i = n++;
      switch (i % 4) {
        case 0:
          return request(`${base}/v1/portfolio`, { headers: auth, timeoutMs: REQUEST_TIMEOUT_MS });
        case 1:
          return request(`${base}/v1/portfolio/positions`, { method: "POST", headers: auth, body: { opportunity_id: opportunities[i % 30]!.id, notional_usd: 500 }, timeoutMs: REQUEST_TIMEOUT_MS });
        case 2:
          return request(`${base}/v1/opportunities?limit=5`, { headers: auth, timeoutMs: REQUEST_TIMEOUT_MS });
        default:
          return request(`${base}/healthz`, { timeoutMs: REQUEST_TIMEOUT_MS });
      }
    };
    const paths = ["GET /v1/portfolio", "POST /v1/portfolio/positions", "GET /v1/opportunities", "GET /healthz"];
    const samples: Sample[] = [];
    let stop = false;
    const loop = async () => {
      while (!stop) {
        const i = n;
        const answer = await next();
        samples.push({ ...answer, path: paths[i % 4]!, at: Date.now() });
        // The Desk limit is 1,000 a minute: stay well under it so every answer is about the database.
        await sleep(60);
      }
    };
    const loops = Array.from({ length: LOOPS }, loop);
    await sleep(3_000);
    const restartAt = Date.now();
    const restarted = await restartCluster(cluster);
    const restartedAt = Date.now();
    report.check("pg_ctl restart -m fast", restarted.code === 0, `${((restartedAt - restartAt) / 1000).toFixed(1)} s${restarted.code === 0 ? "" : `: ${restarted.output.slice(-500)}`}`);
    // Keep the load on until every kind of request has succeeded again, and a while more.
    const recovered = async () => {
      const since = samples.filter((s) => s.at > restartedAt);
      return paths.every((p) => since.some((s) => s.path === p && s.status >= 200 && s.status < 300));
    };
    const deadline = restartedAt + RECOVERY_S * 1_000;
    while (!(await recovered()) && Date.now() < deadline) await sleep(100);
    await sleep(3_000);
    stop = true;
    await Promise.all(loops);

    const during = samples.filter((s) => s.at >= restartAt);
    const byStatus = new Map<number, number>();
    for (const s of samples) byStatus.set(s.status, (byStatus.get(s.status) ?? 0) + 1);
    report.note(`${samples.length} requests (${during.length} from the restart on); statuses: ${[...byStatus].sort().map(([s, c]) => `${s || "no answer"} ×${c}`).join(", ")}`);
    const hung = samples.filter((s) => s.status === 0);
    report.check(`every request answered within ${REQUEST_TIMEOUT_MS / 1000} s`, hung.length === 0, hung.slice(0, 3).map((s) => `${s.path}: ${s.error}`).join("; "));
    const slowest = Math.max(...samples.map((s) => s.ms));
    report.note(`slowest answer ${slowest.toFixed(0)} ms`);
    const notJson = samples.filter((s) => s.status !== 0 && s.json === undefined);
    report.check("every body is JSON", notJson.length === 0, notJson.slice(0, 2).map((s) => `${s.path} ${s.status}: ${s.body.slice(0, 80)}`).join("; "));
    const badErrors = samples.filter((s) => s.status >= 400 && !(s.path === "GET /healthz" ? s.status === 503 : (s.status === 500 || s.status === 503) && isErrorEnvelope(s.json)));
    report.check("every failure is a 500/503 error envelope (a 503 health answer for /healthz)", badErrors.length === 0, badErrors.slice(0, 3).map((s) => `${s.path} ${s.status}: ${s.body.slice(0, 120)}`).join("; "));
    const failures = during.filter((s) => s.status >= 400);
    const codes = new Map<string, number>();
    for (const s of failures) {
      const code = (s.json as { error?: { code?: string } } | undefined)?.error?.code ?? (s.path === "GET /healthz" ? "healthz 503" : "?");
      codes.set(`${s.status} ${code}`, (codes.get(`${s.status} ${code}`) ?? 0) + 1);
    }
    report.note(`failed answers during the outage: ${failures.length} (${[...codes].map(([c, k]) => `${c} ×${k}`).join(", ") || "none"})`);
    const firstOk = paths.map((p) => samples.find((s) => s.at > restartedAt && s.path === p && s.status < 300)?.at);
    const recoveredIn = firstOk.every((t) => t !== undefined) ? (Math.max(...(firstOk as number[])) - restartedAt) / 1000 : Infinity;
    report.check(`the server recovered without a restart within ${RECOVERY_S} s of PostgreSQL being back`, recoveredIn <= RECOVERY_S, `every kind of request succeeded again after ${recoveredIn.toFixed(1)} s`);
    const tail = samples.filter((s) => s.at > restartedAt + recoveredIn * 1000 + 500);
    report.check("and kept succeeding after that", tail.length > 0 && tail.every((s) => s.status < 300), `${tail.filter((s) => s.status >= 300).length} failures of ${tail.length}`);
    report.check("the server process stayed up", server.child.exitCode === null && server.child.signalCode === null);
  });
  return report;
}
