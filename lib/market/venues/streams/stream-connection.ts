import WebSocket, { type RawData } from "ws";
import { backoffDelay, DEFAULT_BACKOFF, type BackoffPolicy } from "./backoff";
import type { StreamSocketPlan, StreamUpdate, VenueStreamProtocol } from "./stream-protocol";

/**
 * - `connecting`: a socket is opening, or is open and has carried no market update since it was
 *   (re)opened after a drop.
 * - `live`: market updates arrive.
 * - `stalled`: a socket stayed silent past `stallAfterMs`, was reopened to subscribe again, and
 *   stayed silent another `stallAfterMs`. The venue is polled meanwhile; the socket keeps trying.
 * - `down`: a socket closed and waits for its next attempt (or the connection was closed).
 * With several sockets the connection is in the worst of their states (down, stalled, connecting,
 * live), since the markets of the one socket that is not live are not fresh.
 */
export type StreamState = "connecting" | "live" | "stalled" | "down";

export interface StreamConnectionOptions {
  protocol: VenueStreamProtocol;
  venueMarketIds: readonly string[];
  /** Rewrites a venue URL: tests, the benchmark and the fault suite point streams at a loopback replay server. */
  resolveUrl?: (url: string) => string;
  /** Decoded market updates of one frame, with when the frame arrived (epoch ms). */
  onUpdates: (updates: StreamUpdate[], receivedAt: number) => void;
  /** The connection's state changed ("stalled": silent past protocol.stallAfterMs after one resubscribe). */
  onState: (state: StreamState, reason?: string) => void;
  /** A socket was opened again after a drop, a stall or its lifetime. */
  onReconnect?: (at: number) => void;
  /** Protocol errors and undecodable frames (logged, counted; never thrown). */
  onError?: (message: string) => void;
  now?: () => number;
  /** Jittered exponential; defaults 1 s → 60 s, forgotten after a socket was healthy for 60 s. */
  backoff?: BackoffPolicy;
  /** For protocol.connectUrl. */
  fetch?: typeof globalThis.fetch;
  /** The jitter's source, [0, 1) (tests pin it). */
  random?: () => number;
  /**
   * How long an opening handshake may take before it counts as a failed attempt (default 10 s), in
   * the time the connection's thread was listening, as the stall limit is.
   */
  connectTimeoutMs?: number;
}

const STATE_ORDER: readonly StreamState[] = ["live", "connecting", "stalled", "down"];

/** One planned socket and what is known of it. */
interface Slot {
  plan: StreamSocketPlan;
  /** Equal keys = the same socket plan: setMarkets keeps such sockets open. */
  key: string;
  /** The socket in service (possibly still opening). */
  socket?: WebSocket;
  /** The lifetime rollover's new socket, until it carries data (then it is the socket in service). */
  replacement?: WebSocket;
  everOpened: boolean;
  state: StreamState;
  /** Failed attempts since the last healthy period: the backoff's exponent. */
  attempt: number;
  openedAt: number;
  lastUpdateAt: number;
  /** The later of the last market update and the socket's opening, on the listening clock: the stall clock. */
  quietSince: number;
  /** 0 flowing; 1 reopened once for silence; 2 stalled. */
  stallStep: 0 | 1 | 2;
  retryTimer?: NodeJS.Timeout;
  keepaliveTimer?: NodeJS.Timeout;
  lifetimeTimer?: NodeJS.Timeout;
  takeoverTimer?: NodeJS.Timeout;
  removed: boolean;
}

function planKey(plan: StreamSocketPlan): string {
  return JSON.stringify([plan.url, plan.subscribe]);
}

function frameBytes(data: RawData): Buffer {
  if (Buffer.isBuffer(data)) return data;
  if (Array.isArray(data)) return Buffer.concat(data);
  return Buffer.from(data);
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function later(ms: number, run: () => void): NodeJS.Timeout {
  const timer = setTimeout(run, ms);
  timer.unref();
  return timer;
}

/**
 * A venue's public stream: the sockets its protocol plans for the markets, each subscribed on open,
 * kept alive, reopened with jittered backoff when it drops, reopened once when silent and reported
 * stalled when that did not help, and replaced before the venue's lifetime cut. Frames are decoded
 * by the protocol; what cannot be read is reported through `onError` and the socket carries on.
 * Every timer is unref'd, and close() ends every socket and timer.
 */
export class StreamConnection {
  private readonly protocol: VenueStreamProtocol;
  private readonly options: StreamConnectionOptions;
  private readonly now: () => number;
  private readonly backoff: Required<BackoffPolicy>;
  private readonly random: () => number;
  private venueMarketIds: readonly string[];
  private slots: Slot[] = [];
  /** Every socket not yet closed, the replaced and abandoned ones included: close() waits for them. */
  private readonly sockets = new Set<WebSocket>();
  /** Per listed market: its last update, or when it was listed, whichever is later. */
  private readonly marketClock = new Map<string, number>();
  private current: StreamState = "connecting";
  /** When the connection last turned live: silence before it is the stall's, not the market's. */
  private liveSince = 0;
  private tickTimer?: NodeJS.Timeout;
  private tickMs = 1_000;
  private lastTickAt = 0;
  /** The listening clock at the last tick (see `listenedAt`). */
  private listenedMs = 0;
  /** Sockets whose opening handshake has not ended: when each started, on the listening clock, and how to give up on it. */
  private readonly handshakes = new Map<WebSocket, { since: number; giveUp: () => void }>();
  private started = false;
  private closed = false;

  constructor(options: StreamConnectionOptions) {
    this.options = options;
    this.protocol = options.protocol;
    this.now = options.now ?? Date.now;
    this.backoff = { ...DEFAULT_BACKOFF, ...options.backoff };
    this.random = options.random ?? Math.random;
    this.venueMarketIds = [...options.venueMarketIds];
    const listedAt = this.now();
    for (const id of this.venueMarketIds) this.marketClock.set(id, listedAt);
  }

  get state(): StreamState {
    return this.closed ? "down" : this.current;
  }

  /**
   * The time this connection's thread spent listening, in ms, at wall time `now`: wall time, except
   * that the time since a tick counts at most two tick periods. A tick that comes later than that
   * says the thread was busy, not that the venue fell silent: frames that arrived meanwhile wait
   * unread behind the timer (timers run before the socket reads), so wall time would blame the
   * venue for the thread's own pause, and a busy thread pausing again before it reads would reopen
   * a flowing socket, or time out a handshake the venue had answered. On a thread that keeps time
   * the two clocks agree; on a late one a real silence is still caught, after as many ticks.
   */
  private listenedAt(now: number): number {
    return this.listenedMs + Math.min(Math.max(0, now - this.lastTickAt), 2 * this.tickMs);
  }

  start(): void {
    if (this.started || this.closed) return;
    this.started = true;
    // A quarter of the stall limit (at most a second) is late enough to be cheap and early enough to matter.
    this.tickMs = Math.min(1_000, Math.max(10, Math.floor(this.protocol.stallAfterMs / 4)));
    this.lastTickAt = this.now();
    this.tickTimer = setInterval(() => this.checkSilence(), this.tickMs);
    this.tickTimer.unref();
    this.applyPlans(this.protocol.sockets(this.venueMarketIds), "started");
  }

  /** The round's market list changed: subscribe to the new plan (reopen only the sockets whose plan changed). */
  setMarkets(venueMarketIds: readonly string[]): void {
    if (this.closed) return;
    const listed = new Set(venueMarketIds);
    for (const id of this.marketClock.keys()) if (!listed.has(id)) this.marketClock.delete(id);
    const listedAt = this.now();
    for (const id of listed) if (!this.marketClock.has(id)) this.marketClock.set(id, listedAt);
    this.venueMarketIds = [...venueMarketIds];
    if (this.started) this.applyPlans(this.protocol.sockets(this.venueMarketIds), "markets changed");
  }

  /**
   * Markets that sent no update for `ms` while their socket was live: the per-market silence.
   * Nothing while the connection is not live (the whole venue is then polled), and a market's
   * silence counts from its listing or from the connection's last turn to live, whichever is later.
   */
  silentMarkets(ms: number, now: number = this.now()): string[] {
    if (this.state !== "live") return [];
    const silent: string[] = [];
    for (const [id, heardAt] of this.marketClock) {
      if (now - Math.max(heardAt, this.liveSince) >= ms) silent.push(id);
    }
    return silent;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.tickTimer);
    for (const slot of this.slots) this.removeSlot(slot);
    this.slots = [];
    // Sockets being closed politely (replaced at their lifetime) need not wait for the venue's answer.
    for (const socket of this.sockets) socket.terminate();
    await Promise.all(
      [...this.sockets].map((socket) => new Promise<void>((resolve) => {
        if (socket.readyState === WebSocket.CLOSED) resolve();
        else socket.once("close", () => resolve());
      })),
    );
  }

  private applyPlans(plans: StreamSocketPlan[], reason: string): void {
    const unmatched = [...this.slots];
    const next: Slot[] = [];
    const opening: Slot[] = [];
    for (const plan of plans) {
      const key = planKey(plan);
      const index = unmatched.findIndex((slot) => slot.key === key);
      if (index >= 0) {
        next.push(...unmatched.splice(index, 1));
        continue;
      }
      const slot: Slot = {
        plan, key, everOpened: false, state: "connecting", attempt: 0,
        openedAt: 0, lastUpdateAt: 0, quietSince: 0, stallStep: 0, removed: false,
      };
      next.push(slot);
      opening.push(slot);
    }
    for (const slot of unmatched) this.removeSlot(slot);
    this.slots = next;
    this.updateState(plans.length === 0 ? "no socket planned for these markets" : reason);
    for (const slot of opening) void this.connect(slot, "service");
  }

  /** Opens a socket for `slot`, as the socket in service or as the lifetime rollover's replacement. */
  private async connect(slot: Slot, role: "service" | "replacement"): Promise<void> {
    let url = slot.plan.url;
    if (this.protocol.connectUrl) {
      try {
        url = await this.protocol.connectUrl(url, this.options.fetch ?? globalThis.fetch);
      } catch (error) {
        if (!this.closed && !slot.removed) this.attemptFailed(slot, role, `connect URL: ${errorMessage(error)}`);
        return;
      }
    }
    if (this.closed || slot.removed) return;
    const resolved = this.options.resolveUrl ? this.options.resolveUrl(url) : url;
    let socket: WebSocket;
    try {
      // No handshakeTimeout: the checks' tick gives up on a handshake, on the listening clock.
      socket = new WebSocket(resolved);
    } catch (error) {
      this.attemptFailed(slot, role, `bad URL: ${errorMessage(error)}`);
      return;
    }
    this.sockets.add(socket);
    if (role === "service") slot.socket = socket;
    else slot.replacement = socket;
    let lastError: string | undefined;
    let gaveUp = false;
    let wasOpen = false;
    this.handshakes.set(socket, {
      since: this.listenedAt(this.now()),
      giveUp: () => {
        if (socket.readyState !== WebSocket.CONNECTING) return;
        gaveUp = true;
        socket.terminate();
      },
    });
    socket.on("open", () => {
      wasOpen = true;
      this.handshakes.delete(socket);
      this.opened(slot, socket);
    });
    socket.on("message", (data, isBinary) => this.received(slot, socket, data, isBinary));
    // The close event follows every error; it reports the error as its reason.
    socket.on("error", (error) => (lastError = error.message));
    socket.on("close", (code, reason) => {
      this.sockets.delete(socket);
      this.handshakes.delete(socket);
      const why = gaveUp ? `opening handshake timed out (${this.connectTimeoutMs} ms)` : (lastError ?? `closed with ${code}${reason.length > 0 ? ` ${reason.toString()}` : ""}`);
      this.socketClosed(slot, socket, wasOpen, why);
    });
  }

  private get connectTimeoutMs(): number {
    return this.options.connectTimeoutMs ?? 10_000;
  }

  private opened(slot: Slot, socket: WebSocket): void {
    if (this.closed || slot.removed) return;
    for (const frame of slot.plan.subscribe) socket.send(frame);
    if (socket === slot.socket) this.inService(slot, socket);
    else if (socket === slot.replacement) {
      // A replacement that carries nothing within the stall limit takes over anyway: the stall checks then judge it.
      slot.takeoverTimer = later(this.protocol.stallAfterMs, () => this.takeOver(slot));
    }
  }

  /** `socket` is now the slot's socket in service, and open. */
  private inService(slot: Slot, socket: WebSocket): void {
    const now = this.now();
    const reopened = slot.everOpened;
    slot.everOpened = true;
    slot.openedAt = now;
    slot.quietSince = this.listenedAt(now);
    this.startKeepalive(slot, socket);
    const lifetime = this.protocol.maxLifetimeMs;
    if (lifetime !== undefined) slot.lifetimeTimer = later(lifetime, () => this.rollOver(slot));
    // After a stall's reopen the slot stays as it was until data says otherwise.
    if (slot.state === "down") this.setSlotState(slot, "connecting", "reconnected");
    if (reopened) this.notify(() => this.options.onReconnect?.(now));
  }

  private received(slot: Slot, socket: WebSocket, data: RawData, isBinary: boolean): void {
    if (this.closed || slot.removed || (socket !== slot.socket && socket !== slot.replacement)) return;
    const receivedAt = this.now();
    const bytes = frameBytes(data);
    let events;
    try {
      events = this.protocol.decode(isBinary ? bytes : bytes.toString("utf8"), receivedAt);
    } catch (error) {
      this.reportError(`undecodable frame: ${errorMessage(error)}`);
      return;
    }
    const updates: StreamUpdate[] = [];
    for (const event of events) {
      if (event.kind === "updates") updates.push(...event.updates);
      else if (event.kind === "reply") {
        if (socket.readyState === WebSocket.OPEN) socket.send(event.frame);
      } else if (event.kind === "error") this.reportError(event.message);
      // Acks and heartbeats say the socket is alive, not that any market is fresh: they leave the stall clock alone.
    }
    if (updates.length === 0) return;
    if (socket === slot.replacement) this.takeOver(slot);
    this.marketData(slot, updates, receivedAt);
    this.notify(() => this.options.onUpdates(updates, receivedAt));
  }

  private marketData(slot: Slot, updates: StreamUpdate[], receivedAt: number): void {
    slot.lastUpdateAt = receivedAt;
    slot.quietSince = this.listenedAt(receivedAt);
    slot.stallStep = 0;
    if (slot.retryTimer && slot.socket) {
      // A stalled socket's retry is moot once it carries data again.
      clearTimeout(slot.retryTimer);
      slot.retryTimer = undefined;
    }
    if (receivedAt - slot.openedAt >= this.backoff.resetAfterMs) slot.attempt = 0;
    for (const update of updates) {
      if (this.marketClock.has(update.venueMarketId)) this.marketClock.set(update.venueMarketId, receivedAt);
    }
    if (slot.state !== "live") this.setSlotState(slot, "live", "market data");
  }

  private socketClosed(slot: Slot, socket: WebSocket, wasOpen: boolean, reason: string): void {
    if (this.closed || slot.removed) return;
    if (socket === slot.replacement) {
      slot.replacement = undefined;
      clearTimeout(slot.takeoverTimer);
      this.attemptFailed(slot, "replacement", reason);
      return;
    }
    if (socket !== slot.socket) return;
    if (slot.replacement) {
      // The venue cut the old socket before the replacement took over: the replacement carries on.
      this.takeOver(slot);
      return;
    }
    this.stopSocketTimers(slot);
    slot.socket = undefined;
    const healthy = wasOpen && slot.lastUpdateAt >= slot.openedAt && this.now() - slot.openedAt >= this.backoff.resetAfterMs;
    if (healthy) slot.attempt = 0;
    slot.stallStep = 0;
    this.setSlotState(slot, "down", reason);
    this.scheduleRetry(slot, () => void this.connect(slot, "service"));
  }

  private attemptFailed(slot: Slot, role: "service" | "replacement", reason: string): void {
    if (role === "replacement") {
      // The socket in service still runs: try the rollover again later.
      slot.lifetimeTimer = later(backoffDelay(slot.attempt++, this.backoff, this.random), () => this.rollOver(slot));
      return;
    }
    slot.socket = undefined;
    slot.stallStep = 0;
    this.setSlotState(slot, "down", reason);
    this.scheduleRetry(slot, () => void this.connect(slot, "service"));
  }

  private scheduleRetry(slot: Slot, run: () => void): void {
    clearTimeout(slot.retryTimer);
    slot.retryTimer = later(backoffDelay(slot.attempt++, this.backoff, this.random), () => {
      slot.retryTimer = undefined;
      if (!this.closed && !slot.removed) run();
    });
  }

  /**
   * The checks, on every tick, on the listening clock: handshakes past the connect timeout are given
   * up; a silent socket goes silence → reopen once → stalled → reopen with backoff until data.
   */
  private checkSilence(): void {
    const now = this.now();
    const listened = this.listenedAt(now);
    this.listenedMs = listened;
    this.lastTickAt = now;
    for (const { since, giveUp } of [...this.handshakes.values()]) {
      if (listened - since >= this.connectTimeoutMs) giveUp();
    }
    const stallAfterMs = this.protocol.stallAfterMs;
    for (const slot of this.slots) {
      const socket = slot.socket;
      if (!socket || socket.readyState !== WebSocket.OPEN || slot.retryTimer) continue;
      if (listened - slot.quietSince < stallAfterMs) continue;
      const silence = `no market update for ${now - Math.max(slot.lastUpdateAt, slot.openedAt)} ms`;
      if (slot.stallStep === 0) {
        slot.stallStep = 1;
        this.reopen(slot);
      } else {
        if (slot.stallStep === 1) {
          slot.stallStep = 2;
          this.setSlotState(slot, "stalled", `${silence} after resubscribing`);
        }
        this.scheduleRetry(slot, () => this.reopen(slot));
      }
    }
  }

  /** Closes the slot's socket and opens it again at once (subscribing again on open). */
  private reopen(slot: Slot): void {
    this.stopSocketTimers(slot);
    const sockets = [slot.socket, slot.replacement];
    slot.socket = undefined;
    slot.replacement = undefined;
    for (const socket of sockets) socket?.terminate();
    void this.connect(slot, "service");
  }

  /** The socket nears the venue's lifetime cut: open its replacement; the old one closes once the new one carries data. */
  private rollOver(slot: Slot): void {
    slot.lifetimeTimer = undefined;
    if (this.closed || slot.removed || !slot.socket || slot.replacement) return;
    void this.connect(slot, "replacement");
  }

  private takeOver(slot: Slot): void {
    const next = slot.replacement;
    if (!next) return;
    clearTimeout(slot.takeoverTimer);
    slot.replacement = undefined;
    const old = slot.socket;
    this.stopSocketTimers(slot);
    slot.socket = next;
    if (old && old.readyState !== WebSocket.CLOSED) old.close(1000, "replaced");
    // Still opening (the old one was cut early): its open makes it the socket in service.
    if (next.readyState === WebSocket.OPEN) this.inService(slot, next);
  }

  private startKeepalive(slot: Slot, socket: WebSocket): void {
    const keepalive = this.protocol.keepalive;
    if (!keepalive) return;
    clearInterval(slot.keepaliveTimer);
    slot.keepaliveTimer = setInterval(() => {
      if (socket.readyState !== WebSocket.OPEN) return;
      if (keepalive.frame === "protocol-ping") socket.ping();
      else socket.send(keepalive.frame);
    }, keepalive.everyMs);
    slot.keepaliveTimer.unref();
  }

  private stopSocketTimers(slot: Slot): void {
    clearInterval(slot.keepaliveTimer);
    clearTimeout(slot.lifetimeTimer);
    clearTimeout(slot.takeoverTimer);
    slot.keepaliveTimer = undefined;
    slot.lifetimeTimer = undefined;
    slot.takeoverTimer = undefined;
  }

  private removeSlot(slot: Slot): void {
    slot.removed = true;
    this.stopSocketTimers(slot);
    clearTimeout(slot.retryTimer);
    slot.retryTimer = undefined;
    for (const socket of [slot.socket, slot.replacement]) socket?.terminate();
    slot.socket = undefined;
    slot.replacement = undefined;
  }

  private setSlotState(slot: Slot, state: StreamState, reason: string): void {
    slot.state = state;
    this.updateState(reason);
  }

  private updateState(reason: string): void {
    if (this.closed) return;
    const worst = this.slots.length === 0
      ? "down"
      : this.slots.reduce<StreamState>(
          (acc, slot) => (STATE_ORDER.indexOf(slot.state) > STATE_ORDER.indexOf(acc) ? slot.state : acc),
          "live",
        );
    if (worst === this.current) return;
    this.current = worst;
    if (worst === "live") this.liveSince = this.now();
    this.notify(() => this.options.onState(worst, reason));
  }

  private reportError(message: string): void {
    const onError = this.options.onError;
    if (onError) this.notify(() => onError(`${this.protocol.venue}: ${message}`));
  }

  /** Runs a caller's callback: one that throws must not take the socket's event handler down with it. */
  private notify(callback: () => void): void {
    try {
      callback();
    } catch (error) {
      if (this.options.onError) {
        try {
          this.options.onError(`${this.protocol.venue}: a stream callback failed: ${errorMessage(error)}`);
        } catch {
          // The error callback itself failed: nothing left to tell.
        }
      }
    }
  }
}
