/**
 * What the client generators need to know about each operation, read from the OpenAPI document
 * (not from the route table), so the clients are derived from the same document a third-party
 * generator would see.
 */
export interface ClientParameter {
  name: string;
  required: boolean;
  description: string;
  /** JSON Schema type of the parsed value: integer, number, string or boolean. */
  type: string;
}

export interface ClientOperation {
  operationId: string;
  method: string;
  /** OpenAPI path, e.g. /v1/opportunities/{id} */
  path: string;
  summary: string;
  status: string;
  pathParameters: ClientParameter[];
  queryParameters: ClientParameter[];
  /** `data` is the list payload (`{items, total, limit, offset, has_more}`) and the query pages with limit and offset. */
  paginated: boolean;
  /** The operation takes a JSON request body. */
  hasBody: boolean;
}

type Json = Record<string, unknown>;

function parameterType(schema: Json): string {
  if (typeof schema.type === "string") return schema.type;
  const variants = (schema.anyOf as Json[] | undefined)?.map(parameterType) ?? [];
  return variants.length > 0 && variants.every((t) => t === variants[0]) ? variants[0]! : "string";
}

function resolve(document: Json, schema: Json): Json {
  const ref = schema.$ref;
  if (typeof ref !== "string") return schema;
  const name = ref.replace("#/components/schemas/", "");
  return ((document.components as Json).schemas as Record<string, Json>)[name]!;
}

export function clientOperations(document: Json): ClientOperation[] {
  const operations: ClientOperation[] = [];
  for (const [path, item] of Object.entries(document.paths as Record<string, Record<string, Json>>)) {
    for (const [method, operation] of Object.entries(item)) {
      const responses = operation.responses as Record<string, Json>;
      const status = Object.keys(responses).find((s) => s.startsWith("2"))!;
      const content = (responses[status]!.content as Record<string, Json>)["application/json"];
      // The event stream (text/event-stream) is no request-and-envelope call: the clients consume it by hand.
      if (!content) continue;
      const body = resolve(document, content.schema as Json);
      const data = resolve(document, (body.properties as Record<string, Json>).data!);
      const parameters = (operation.parameters as Json[]).map((p) => ({
        name: p.name as string,
        in: p.in as string,
        required: p.required === true,
        description: (p.description as string | undefined) ?? "",
        type: parameterType(p.schema as Json),
      }));
      const queryParameters = parameters.filter((p) => p.in === "query").map(({ in: _in, ...p }) => p);
      const dataFields = Object.keys((data.properties as Json | undefined) ?? {});
      operations.push({
        operationId: operation.operationId as string,
        method: method.toUpperCase(),
        path,
        summary: operation.summary as string,
        status,
        pathParameters: parameters.filter((p) => p.in === "path").map(({ in: _in, ...p }) => p),
        queryParameters,
        paginated:
          ["items", "has_more"].every((f) => dataFields.includes(f)) &&
          ["limit", "offset"].every((f) => queryParameters.some((p) => p.name === f)),
        hasBody: operation.requestBody !== undefined,
      });
    }
  }
  return operations;
}

/** listOpportunities → Opportunities: the name of the matching iterator (iterateOpportunities, iter_opportunities). */
export function iteratedNoun(operationId: string): string {
  const rest = operationId.replace(/^list/, "");
  return rest[0]!.toUpperCase() + rest.slice(1);
}
