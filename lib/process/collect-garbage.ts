// One full garbage collection when start-up is over. Start-up leaves garbage no request would
// collect soon: on a new data directory the cluster's tarball and the migrations' buffers (~100 MB
// of ArrayBuffers), and everywhere Next's and the modules' initialisation. An idle server allocates
// too little for V8 to collect it by itself, so without this it stays resident until traffic comes.
// `npm start` runs node with --expose-gc; without the flag this does nothing.
export function collectGarbage(target: { gc?: () => void } = globalThis as { gc?: () => void }): boolean {
  if (typeof target.gc !== "function") return false;
  target.gc();
  return true;
}
