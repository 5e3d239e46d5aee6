// The registry mirror this project installs from serves only the Linux builds of packages with
// per-platform binaries (@next/swc-*, @unrs/resolver-binding-*, …), so `npm install` leaves the
// other platforms' optional packages out of package-lock.json, and `npm ci` then refuses the lock
// as out of sync. Recording them as optional entries (as a lock made against the full registry
// does) makes `npm ci` work again: it skips an optional package it cannot fetch.
// Run after every `npm install <package>`: npm run lock:repair
import fs from "node:fs";

const file = "package-lock.json";
const lock = JSON.parse(fs.readFileSync(file, "utf8"));
const packages = lock.packages;
let added = 0;
for (const [location, meta] of Object.entries(packages)) {
  for (const [name, range] of Object.entries(meta.optionalDependencies ?? {})) {
    const nested = location ? `${location}/node_modules/${name}` : `node_modules/${name}`;
    const hoisted = `node_modules/${name}`;
    if (packages[nested] || packages[hoisted]) continue;
    packages[hoisted] = { version: String(range).replace(/^[\^~=]/, ""), optional: true };
    added++;
  }
}
fs.writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
console.log(added ? `package-lock.json: recorded ${added} optional platform package(s)` : "package-lock.json: nothing to repair");
