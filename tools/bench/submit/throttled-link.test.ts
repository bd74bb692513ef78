import net from "node:net";
import { LinkDirection, throttledLink } from "./throttled-link";

describe("LinkDirection", () => {
  it("delivers half a round trip after the bytes have left, one chunk after the other at the bandwidth", () => {
    const down = new LinkDirection(1000, 200); // 1 Mbit/s = 1 bit per µs = 125 bytes per ms
    expect(down.deliveryTime(125, 0)).toBe(201); // 1 ms to send, 200 ms on the way
    expect(down.deliveryTime(1250, 0)).toBe(211); // waits for the first: leaves at 11 ms
    expect(down.deliveryTime(125, 500)).toBe(701); // the link was idle again
  });
});

describe("throttledLink", () => {
  async function echoThroughLink(measure: (connect: () => Promise<net.Socket>) => Promise<void>) {
    const echo = net.createServer((socket) => socket.pipe(socket));
    await new Promise<void>((resolve) => echo.listen(0, "127.0.0.1", resolve));
    const link = throttledLink({
      name: "test",
      rttMs: 200,
      downKbps: 100_000,
      upKbps: 100_000,
      cpuSlowdown: 1,
    });
    const clients: net.Socket[] = [];
    try {
      const { port } = await link.forward((echo.address() as net.AddressInfo).port);
      await measure(async () => {
        const client = net.connect({ host: "127.0.0.1", port });
        clients.push(client);
        await new Promise((resolve) => client.once("connect", resolve));
        return client;
      });
    } finally {
      for (const client of clients) client.destroy();
      await link.close();
      await new Promise((resolve) => echo.close(resolve));
    }
  }

  async function pingTime(client: net.Socket): Promise<number> {
    const started = performance.now();
    client.write("ping");
    await new Promise((resolve) => client.once("data", resolve));
    return performance.now() - started;
  }

  it("charges a connection's first bytes the TCP handshake and every answer a round trip, and does not hold other connections' bytes during a handshake", async () => {
    await echoThroughLink(async (connect) => {
      const open = await connect();
      const first = await pingTime(open); // handshake round trip + the request's
      const second = await pingTime(open); // the request's only
      expect(first).toBeGreaterThanOrEqual(395);
      expect(second).toBeGreaterThanOrEqual(195);
      expect(second).toBeLessThan(first);
      const opening = await connect();
      opening.write("hello"); // waits for its handshake, not on the shared link
      await new Promise((resolve) => setTimeout(resolve, 20)); // the link has it
      const alongside = await pingTime(open);
      expect(alongside).toBeGreaterThanOrEqual(195);
      expect(alongside).toBeLessThan(300); // 400 when the handshake held the link
    });
  });
});
