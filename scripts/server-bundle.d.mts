// Types of server-bundle.mjs (plain JavaScript: ensure-build.mjs runs it before anything is compiled).
export declare const BUNDLE_DIR: string;
export declare const SERVER_BUNDLE: string;
export declare const WORKER_BUNDLE: string;
export declare const VENUE_THREAD_ENTRY: string;
export declare const STREAM_THREAD_ENTRY: string;
export declare const BUNDLE_ENTRIES: Readonly<Record<"server" | "worker" | "venue-thread" | "stream-thread", string>>;
export declare function withSourceUrl(source: string, fileFromBundle: string): string;
export declare function buildServerBundle(root?: string, outDir?: string): Promise<void>;
