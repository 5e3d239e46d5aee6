// Scenario b: a burst of POST /v1/portfolio/positions from one Desk key, each Idempotency-Key sent
// several times (copies at once, and retries after a connection the client dropped mid-request),
// creates each position exactly once: counted in the database, and every 201 for one key names the
// same position.
import { request, sleep, withDeskServer, type FaultEnv } from "./harness";
import { Report } from "./report";

const OBJECTS = 60;
const CONCURRENT_COPIES = 3;

interface Created {
  status: number;
  positionId?: string;
  code?: string;
}

export async function idempotentRetries(env: FaultEnv): Promise<Report> {
  const report = new Report("b. retried idempotent writes");
  await withDeskServer(env, async ({ database, opportunities, desk, server }) => {
    const url = `${server.url}/v1/portfolio/positions`;
    const body = (i: number) => ({ opportunity_id: opportunities[i % opportunities.length]!.id, notional_usd: 1_000 + i, note: `fault b ${i}` });
    const headers = (i: number) => ({ authorization: `Bearer ${desk.secret}`, "idempotency-key": `fault-b-${process.pid}-${i}` });
    const post = async (i: number, timeoutMs = 15_000): Promise<Created> => {
      const answer = await request(url, { method: "POST", headers: headers(i), body: body(i), timeoutMs });
      const json = answer.json as { data?: { id?: string }; error?: { code?: string } } | undefined;
      return { status: answer.status, positionId: json?.data?.id, code: json?.error?.code };
    };

    const answers = new Map<number, Created[]>();
    const record = (i: number, created: Created) => answers.set(i, [...(answers.get(i) ?? []), created]);
    let dropped = 0;
    // The burst: every object at once; a third are sent as concurrent copies, a third are first sent
    // on a connection dropped after 1–30 ms (the server may or may not have done the work), the rest once.
    await Promise.all(
      Array.from({ length: OBJECTS }, async (_, i) => {
        if (i % 3 === 0) {
          const copies = await Promise.all(Array.from({ length: CONCURRENT_COPIES }, () => post(i)));
          for (const c of copies) record(i, c);
        } else if (i % 3 === 1) {
          const cut = await post(i, 1 + ((i * 7) % 30));
          if (cut.status === 0) dropped++;
          else record(i, cut);
          record(i, await post(i));
        } else {
          record(i, await post(i));
        }
      }),
    );
    // Then every object is resent until it has its 201 (a copy may have met 409 "still in progress").
    for (let i = 0; i < OBJECTS; i++) {
      for (let attempt = 0; attempt < 20 && !(answers.get(i) ?? []).some((a) => a.status === 201); attempt++) {
        await sleep(100);
        record(i, await post(i));
      }
      record(i, await post(i)); // and once more, late: a pure replay
    }

    const all = [...answers.values()].flat();
    const statuses = new Map<string, number>();
    for (const a of all) statuses.set(`${a.status}${a.code ? ` ${a.code}` : ""}`, (statuses.get(`${a.status}${a.code ? ` ${a.code}` : ""}`) ?? 0) + 1);
    report.note(`${all.length + dropped} requests for ${OBJECTS} objects, ${dropped} connections dropped by the client; answers: ${[...statuses].map(([s, n]) => `${s} ×${n}`).join(", ")}`);
    const unexpected = all.filter((a) => a.status !== 201 && !(a.status === 409 && a.code === "IDEMPOTENCY_CONFLICT"));
    report.check("every answer is 201 or 409 IDEMPOTENCY_CONFLICT (still in progress)", unexpected.length === 0, unexpected.slice(0, 3).map((a) => `${a.status} ${a.code ?? ""}`).join("; "));
    const split = [...answers].filter(([, list]) => new Set(list.filter((a) => a.status === 201).map((a) => a.positionId)).size !== 1);
    report.check("every Idempotency-Key's 201 answers name one and the same position", split.length === 0, split.length ? `${split.length} keys with 0 or several ids` : "");
    const count = await database.db.position.count({ where: { userId: desk.userId } });
    report.check(`the database holds exactly ${OBJECTS} positions`, count === OBJECTS, `${count} rows`);
    const ids = new Set(all.filter((a) => a.status === 201).map((a) => a.positionId));
    report.check("the positions answered are the positions stored", ids.size === OBJECTS && (await database.db.position.count({ where: { id: { in: [...ids] as string[] } } })) === OBJECTS);
  });
  return report;
}
