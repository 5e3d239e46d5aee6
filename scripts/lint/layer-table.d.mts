export const ARCHITECTURE: string;
export function layerTable(): string;
export function tableInPage(page: string): string | null;
