import type { FundingSettlement } from "@/lib/market/model/funding-settlement";
import { logger } from "@/lib/observability/logger";
import type { ExportWriter } from "./export-format";

const log = logger("export");

/**
 * An export's body, read as the client takes it: each pull reads the next batch and writes it, so
 * at most one batch waits unsent and one is being read, whatever the export's size. A failure
 * while reading errors the body, which ends the connection without the closing chunk, so a
 * client cannot take a cut file for a whole one.
 */
export function exportStream(batches: AsyncGenerator<FundingSettlement[]>, writer: ExportWriter, context: Record<string, unknown> = {}): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        controller.enqueue(writer.start());
      },
      async pull(controller) {
        try {
          const next = await batches.next();
          if (next.done) {
            const tail = writer.end();
            if (tail.length > 0) controller.enqueue(tail);
            controller.close();
            return;
          }
          const bytes = writer.batch(next.value);
          if (bytes.length > 0) controller.enqueue(bytes);
        } catch (error) {
          log.error({ err: error, ...context }, "an export failed while streaming");
          controller.error(error);
        }
      },
      async cancel() {
        await batches.return(undefined);
      },
    },
    { highWaterMark: 1 },
  );
}
