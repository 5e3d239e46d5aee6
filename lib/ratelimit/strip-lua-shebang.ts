/**
 * Removes a leading `#!lua flags=…` line. Upstash starts its scripts with
 * `#!lua flags=allow-key-locking`, a flag only Upstash knows; open-source Redis 7 rejects the
 * whole script over it ("Unexpected flag in script shebang"), and without the line Redis runs the
 * script with its default flags, which is what the scripts need. The newline is kept so Lua
 * error line numbers still match the original.
 */
export function stripLuaShebang(script: string): string {
  if (!script.startsWith("#!")) return script;
  const newline = script.indexOf("\n");
  return newline === -1 ? "" : script.slice(newline);
}
