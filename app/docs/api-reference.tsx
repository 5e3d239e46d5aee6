"use client";

import dynamic from "next/dynamic";
import "swagger-ui-react/swagger-ui.css";

// swagger-ui reads `window` as it loads, so it renders in the browser only; it comes from our own bundle.
const SwaggerUI = dynamic(() => import("swagger-ui-react"), {
  ssr: false,
  loading: () => <p className="muted">Loading the interactive reference…</p>,
});

/** The interactive reference, rendered from the same OpenAPI document /v1/openapi.json serves. */
export function ApiReference({ document }: { document: object }) {
  return <SwaggerUI spec={document} docExpansion="list" defaultModelsExpandDepth={0} persistAuthorization={false} />;
}
