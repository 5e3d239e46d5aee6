import { gzipSync } from "node:zlib";

export interface ArchiveEntry {
  /** Path inside the archive, "/"-separated, at most 100 bytes (all this service's files are far shorter). */
  path: string;
  content: Buffer | string;
}

const BLOCK = 512;

/**
 * A gzipped POSIX ustar archive of regular files, as npm and pip read them. Small on purpose: the
 * client downloads need files only (extractors create the folders), and a dependency for that
 * would be more code than this. `mtime` is fixed by the caller so the same files give the same bytes.
 */
export function tarGz(entries: readonly ArchiveEntry[], mtime: Date): Buffer {
  const blocks: Buffer[] = [];
  for (const entry of entries) {
    const content = typeof entry.content === "string" ? Buffer.from(entry.content) : entry.content;
    blocks.push(header(entry.path, content.length, mtime), content, Buffer.alloc((BLOCK - (content.length % BLOCK)) % BLOCK));
  }
  blocks.push(Buffer.alloc(2 * BLOCK)); // the end-of-archive marker
  return gzipSync(Buffer.concat(blocks));
}

function header(path: string, size: number, mtime: Date): Buffer {
  const name = Buffer.from(path);
  if (name.length > 100) throw new Error(`archive path longer than 100 bytes: ${path}`);
  const block = Buffer.alloc(BLOCK);
  name.copy(block, 0);
  octal(block, 100, 8, 0o644); // mode
  octal(block, 108, 8, 0); // uid
  octal(block, 116, 8, 0); // gid
  octal(block, 124, 12, size);
  octal(block, 136, 12, Math.floor(mtime.getTime() / 1000));
  block.fill(" ", 148, 156); // the checksum counts its own field as spaces
  block.write("0", 156); // typeflag: regular file
  block.write("ustar\u000000", 257, "latin1"); // magic "ustar\0" and version "00"
  const checksum = block.reduce((sum, byte) => sum + byte, 0);
  block.write(`${checksum.toString(8).padStart(6, "0")}\u0000 `, 148, "latin1");
  return block;
}

/** A numeric field: zero-padded octal digits and a terminating NUL, filling `length` bytes. */
function octal(block: Buffer, offset: number, length: number, value: number) {
  block.write(`${value.toString(8).padStart(length - 1, "0")}\u0000`, offset, "latin1");
}
