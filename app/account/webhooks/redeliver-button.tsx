"use client";

import { useRouter } from "next/navigation";
import { useJsonPost } from "@/app/components/use-json-post";

/** Queues one more attempt of a delivery; the log re-renders with it once sent. */
export function RedeliverButton({ endpointId, deliveryId }: { endpointId: string; deliveryId: string }) {
  const router = useRouter();
  const { busy, problem, post } = useJsonPost<unknown>();
  return (
    <>
      <button
        type="button"
        className="secondary"
        disabled={busy}
        onClick={async () => {
          if (await post(`/api/account/webhooks/${endpointId}/deliveries/${deliveryId}/redeliver`, {})) {
            // The attempt runs in the background within a second or two.
            setTimeout(() => router.refresh(), 1_500);
          }
        }}
      >
        Redeliver
      </button>
      {problem && (
        <span role="alert" className="error">
          {" "}
          {problem.message}
        </span>
      )}
    </>
  );
}
