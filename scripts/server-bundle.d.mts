// Types of server-bundle.mjs (plain JavaScript: ensure-build.mjs runs it before anything is compiled).
export declare const SERVER_BUNDLE: string;
export declare function withSourceUrl(source: string, fileFromBundle: string): string;
export declare function buildServerBundle(root?: string, outFile?: string): Promise<void>;
