"use client";

import { useEffect, useRef, useState } from "react";
import "swagger-ui-dist/swagger-ui.css";
import "./swagger-ui-contrast.css";

/**
 * The interactive reference, rendered from the same OpenAPI document /v1/openapi.json serves.
 *
 * It uses swagger-ui's prebuilt bundle (swagger-ui-dist) from our own origin, not swagger-ui-react:
 * Turbopack mis-bundles the ApiDOM modules swagger-ui-react pulls in, and every operation of an
 * OpenAPI 3.1 document then spins forever on expand with "refract is not a function"
 * (swagger-api/swagger-ui#10599). The prebuilt bundle is already compiled, so Turbopack leaves it
 * whole. It reads `window` as it loads, hence the import inside the effect (browser only).
 */
export function ApiReference({ document }: { document: object }) {
  const container = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<"loading" | "ready" | "failed">("loading");

  useEffect(() => {
    let cancelled = false;
    // swagger-ui renders asynchronously and re-renders parts (an operation opening): label what it adds.
    const root = container.current;
    const observer = new MutationObserver(() => root && labelLandmarksAndControls(root));
    if (root) observer.observe(root, { childList: true, subtree: true });
    import("swagger-ui-dist/swagger-ui-es-bundle.js")
      .then(({ default: SwaggerUI }) => {
        if (cancelled || !container.current) return;
        SwaggerUI({
          domNode: container.current,
          spec: document,
          docExpansion: "list",
          defaultModelsExpandDepth: 0,
          persistAuthorization: false,
        });
        setState("ready");
      })
      .catch((error: unknown) => {
        // In the reader's browser: its console is where a page's own failure goes (the page says it failed).
        // eslint-disable-next-line no-console
        console.error("loading the API reference failed", error);
        if (!cancelled) setState("failed");
      });
    return () => {
      cancelled = true;
      observer.disconnect();
    };
  }, [document]);

  // swagger-ui owns the container's children, so React never renders into it.
  return (
    <>
      {state === "loading" && <p className="muted">Loading the interactive reference…</p>}
      {state === "failed" && (
        <p role="alert">
          The interactive reference could not load. The same description is at <a href="/v1/openapi.json">/v1/openapi.json</a>.
        </p>
      )}
      <div ref={container} />
    </>
  );
}

/**
 * What swagger-ui renders without a name or in the wrong role, named once it has rendered: its
 * servers select sits in an empty <label> (axe: select-name), and its operations are a second
 * <main>, nested in the page's own. As a named region it stays a landmark a screen reader can jump
 * to without claiming to be the page's main content. swagger-ui never sets these attributes, so its
 * re-renders keep them.
 */
function labelLandmarksAndControls(root: HTMLElement) {
  const servers = root.querySelector("select#servers");
  if (servers && !servers.hasAttribute("aria-label")) servers.setAttribute("aria-label", "Server");
  for (const main of root.querySelectorAll("main:not([role])")) {
    main.setAttribute("role", "region");
    if (!main.hasAttribute("aria-label")) main.setAttribute("aria-label", "Operations");
  }
}
