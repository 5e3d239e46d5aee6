/**
 * The Python client's name for an operation or noun: camelCase operationId → snake_case
 * (listOpportunities → list_opportunities). The generator and /docs both name methods with it.
 */
export function snakeCase(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}
