/** One Server-Sent Events message: what a blank line ends, as the WHATWG "event stream" rules read it. */
export interface SseMessage {
  /** The `id:` field, when the message had one. */
  id?: string;
  /** The `event:` field; "message" when absent. */
  event: string;
  /** The `data:` lines, joined with "\n". */
  data: string;
}

/** What a chunk of the body held, in order: messages, comments (`: heartbeat`) and `retry:` values. */
export type SseItem = { kind: "message"; message: SseMessage } | { kind: "comment"; text: string } | { kind: "retry"; ms: number };

/**
 * Incremental parser of a `text/event-stream` body: feed it text as it arrives, in chunks cut
 * anywhere (mid-line, between "\r" and "\n"), and it returns what each chunk completed. Pure: no I/O.
 */
export class SseParser {
  private buffer = "";
  /** A "\r" ended the last chunk: a "\n" opening the next belongs to it. */
  private pendingCr = false;
  private id: string | undefined;
  private event = "";
  private data: string[] = [];
  private hasData = false;

  push(chunk: string): SseItem[] {
    const items: SseItem[] = [];
    let text = chunk;
    if (this.pendingCr && text.startsWith("\n")) text = text.slice(1);
    this.pendingCr = false;
    this.buffer += text;
    for (;;) {
      const at = this.buffer.search(/[\r\n]/);
      if (at < 0) break;
      const line = this.buffer.slice(0, at);
      let next = at + 1;
      if (this.buffer[at] === "\r") {
        if (at + 1 === this.buffer.length) this.pendingCr = true;
        else if (this.buffer[at + 1] === "\n") next = at + 2;
      }
      this.buffer = this.buffer.slice(next);
      this.line(line, items);
    }
    return items;
  }

  private line(line: string, items: SseItem[]): void {
    if (line === "") {
      if (this.hasData) items.push({ kind: "message", message: { ...(this.id !== undefined && { id: this.id }), event: this.event || "message", data: this.data.join("\n") } });
      this.event = "";
      this.data = [];
      this.hasData = false;
      this.id = undefined;
      return;
    }
    if (line.startsWith(":")) {
      items.push({ kind: "comment", text: line.slice(1).trim() });
      return;
    }
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") {
      this.data.push(value);
      this.hasData = true;
    } else if (field === "event") this.event = value;
    else if (field === "id" && !value.includes("\0")) this.id = value;
    else if (field === "retry" && /^\d+$/.test(value)) items.push({ kind: "retry", ms: Number(value) });
  }
}
