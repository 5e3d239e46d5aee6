// Types of pglite-template.mjs (plain JavaScript: ensure-build.mjs runs it before anything is compiled).
export declare function pgliteTemplatePaths(root?: string): { dir: string; tarball: string };
export declare function readPgliteTemplate(root?: string): Blob | undefined;
export declare function copyPgliteTemplate(target: string, root?: string): boolean;
export declare function makePgliteTemplate(root?: string): Promise<void>;
