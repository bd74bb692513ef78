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
  it("charges a connection's first bytes the TCP handshake, and every answer a round trip", async () => {
    const echo = net.createServer((socket) => socket.pipe(socket));
    await new Promise<void>((resolve) => echo.listen(0, "127.0.0.1", resolve));
    const link = throttledLink({ name: "test", rttMs: 200, downKbps: 100_000, upKbps: 100_000, cpuSlowdown: 1 });
    try {
      const { port } = await link.forward((echo.address() as net.AddressInfo).port);
      const client = net.connect({ host: "127.0.0.1", port });
      await new Promise((resolve) => client.once("connect", resolve));
      const elapsed = async () => {
        const started = performance.now();
        client.write("ping");
        await new Promise((resolve) => client.once("data", resolve));
        return performance.now() - started;
      };
      const first = await elapsed(); // handshake round trip + the request's
      const second = await elapsed(); // the request's only
      expect(first).toBeGreaterThanOrEqual(395);
      expect(second).toBeGreaterThanOrEqual(195);
      expect(second).toBeLessThan(first);
      client.destroy();
    } finally {
      await link.close();
      await new Promise((resolve) => echo.close(resolve));
    }
  });
});
