/**
 * A slow network on loopback at the level of the bytes: a TCP proxy that delays every chunk by half
 * the round trip each way and paces it to one bandwidth per direction shared by every connection.
 * So TCP's and TLS's handshakes and a CORS preflight pay their round trips, which DevTools' network
 * emulation does not charge, and a small answer waits behind a large one already queued.
 * Not modelled: DNS, TCP slow start, packet loss.
 */
import net from "node:net";

export type LinkProfile = {
  name: string;
  /** Round trip, ms. */
  rttMs: number;
  /** Bandwidth towards the phone, kbit/s. */
  downKbps: number;
  /** Bandwidth from the phone, kbit/s. */
  upKbps: number;
  /** Chromium's CPU throttling rate for the page. */
  cpuSlowdown: number;
};

/** The bytes a chunk is split into for pacing: a little more than one TCP segment's worth of time each. */
const PACING_BYTES = 4096;

/**
 * One direction of the link: a chunk leaves once everything before it has been sent (bytes /
 * bandwidth) and arrives half a round trip later, in the order chunks were handed over.
 */
export class LinkDirection {
  private freeAt = 0;
  constructor(
    private readonly kbps: number,
    private readonly oneWayMs: number,
  ) {}

  /** The time (ms, same clock as `now`) at which `bytes` handed over at `now` are delivered. */
  deliveryTime(bytes: number, now: number): number {
    const departs = Math.max(now, this.freeAt) + (bytes * 8) / this.kbps; // kbit/s = bit/ms
    this.freeAt = departs;
    return departs + this.oneWayMs;
  }
}

/**
 * Delivers chunks to `target` at their times, then its end. Chunks written before `sendableAt`
 * (TCP's handshake) wait here, so a handshake does not hold up other connections' bytes.
 */
class DelayedPipe {
  private readonly queue: Array<{ at: number; chunk: Buffer | null }> = [];
  private readonly waiting: Array<Buffer | null> = [];
  private timer: NodeJS.Timeout | undefined;
  private waitTimer: NodeJS.Timeout | undefined;
  constructor(
    private readonly target: net.Socket,
    private readonly direction: LinkDirection,
    private readonly sendableAt: number,
  ) {}

  /** Takes a chunk, or null: the end of the source. */
  hold(chunk: Buffer | null): void {
    const wait = this.sendableAt - performance.now();
    if (wait <= 0 && this.waiting.length === 0) return this.enter(chunk);
    this.waiting.push(chunk);
    this.waitTimer ??= setTimeout(
      () => {
        for (const held of this.waiting.splice(0)) this.enter(held);
      },
      Math.max(0, wait),
    );
  }

  private enter(chunk: Buffer | null): void {
    if (chunk === null) {
      this.queue.push({ at: this.queue.at(-1)?.at ?? performance.now(), chunk: null });
    } else {
      for (let offset = 0; offset < chunk.length; offset += PACING_BYTES) {
        const piece = chunk.subarray(offset, offset + PACING_BYTES);
        this.queue.push({
          at: this.direction.deliveryTime(piece.length, performance.now()),
          chunk: piece,
        });
      }
    }
    this.schedule();
  }

  private schedule(): void {
    if (this.timer || this.queue.length === 0) return;
    this.timer = setTimeout(() => this.flush(), Math.max(0, this.queue[0]!.at - performance.now()));
  }

  private flush(): void {
    this.timer = undefined;
    const now = performance.now();
    while (this.queue.length > 0 && this.queue[0]!.at <= now + 0.5) {
      const { chunk } = this.queue.shift()!;
      if (this.target.destroyed) return;
      if (chunk) this.target.write(chunk);
      else this.target.end();
    }
    this.schedule();
  }
}

/** A link with `profile`'s round trip and bandwidths, shared by every port it forwards. */
export function throttledLink(profile: LinkProfile) {
  const up = new LinkDirection(profile.upKbps, profile.rttMs / 2);
  const down = new LinkDirection(profile.downKbps, profile.rttMs / 2);
  const servers: net.Server[] = [];
  const sockets = new Set<net.Socket>();

  const connect = (client: net.Socket, upstreamPort: number) => {
    // The client's connect() returned at once on loopback; on the real link its first bytes could
    // leave only after the SYN / SYN-ACK round trip.
    const opened = performance.now();
    const server = net.connect({ host: "127.0.0.1", port: upstreamPort });
    for (const socket of [client, server]) {
      socket.setNoDelay(true);
      sockets.add(socket);
      socket.once("close", () => sockets.delete(socket));
    }
    const toServer = new DelayedPipe(server, up, opened + profile.rttMs);
    const toClient = new DelayedPipe(client, down, 0);
    client.on("data", (chunk: Buffer) => toServer.hold(chunk));
    server.on("data", (chunk: Buffer) => toClient.hold(chunk));
    client.once("end", () => toServer.hold(null));
    server.once("end", () => toClient.hold(null));
    client.once("error", () => server.destroy());
    server.once("error", () => client.destroy());
    client.once("close", () => server.destroy());
  };

  return {
    /** Listens on a free loopback port and forwards every connection through the link. */
    async forward(upstreamPort: number): Promise<{ port: number }> {
      const server = net.createServer((client) => connect(client, upstreamPort));
      servers.push(server);
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      return { port: (server.address() as net.AddressInfo).port };
    },
    async close(): Promise<void> {
      for (const socket of sockets) socket.destroy();
      await Promise.all(
        servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))),
      );
    },
  };
}
