// swagger-ui-dist ships no types; this is the part of its prebuilt bundle's API the reference uses.
declare module "swagger-ui-dist/swagger-ui-es-bundle.js" {
  export default function SwaggerUI(options: {
    domNode: HTMLElement;
    spec: object;
    docExpansion?: "list" | "full" | "none";
    defaultModelsExpandDepth?: number;
    persistAuthorization?: boolean;
  }): unknown;
}
