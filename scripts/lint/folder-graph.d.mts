// Types of folder-graph.mjs (plain JavaScript: `npm run lint` runs it without compiling).
export interface CruisedModule {
  source: string;
  coreModule?: boolean;
  couldNotResolve?: boolean;
  dependencies?: { resolved: string; coreModule?: boolean; couldNotResolve?: boolean }[];
}
export type FolderGraph = Map<string, Set<string>>;
export function isTestFile(file: string): boolean;
export function isProjectSource(module: { source: string; coreModule?: boolean; couldNotResolve?: boolean }): boolean;
export function folderGraph(modules: CruisedModule[]): FolderGraph;
export function cycles(graph: FolderGraph): string[][];
export function formatGraph(graph: FolderGraph): string;
export function unitsWithoutLayer(graph: FolderGraph, layerOf: Record<string, number>): string[];
