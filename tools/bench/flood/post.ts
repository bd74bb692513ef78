/**
 * One POST from a loopback source address (Node's localAddress), as the attackers send it (the
 * direct flood, each on its own connection; the solving attacker's threads, on a kept-alive
 * agent); status 0 when it got no answer. A kept connection the server closed meanwhile (its
 * keep-alive timeout, 5 s, passes while a dear challenge is solved) fails at once, and the request
 * is sent again on a new one, as a browser retries it.
 */
import http from "node:http";

export interface PostAnswer {
  status: number;
  text: string;
}

export interface PostOptions {
  localAddress: string;
  agent: http.Agent | false;
  headers: Record<string, string>;
  body: string;
}

export function postFrom(url: URL, options: PostOptions, retry = true): Promise<PostAnswer> {
  const { localAddress, agent, headers, body } = options;
  return new Promise((resolve) => {
    const request = http.request(
      url,
      {
        method: "POST",
        agent,
        localAddress,
        headers: { ...headers, "Content-Length": String(Buffer.byteLength(body)) },
        timeout: 30_000,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () =>
          resolve({
            status: response.statusCode ?? 0,
            text: Buffer.concat(chunks).toString("utf8"),
          }),
        );
        response.on("error", () => resolve({ status: 0, text: "" }));
      },
    );
    request.on("timeout", () => request.destroy(new Error("timeout")));
    request.on("error", (error: NodeJS.ErrnoException) => {
      const stale = request.reusedSocket && (error.code === "ECONNRESET" || error.code === "EPIPE");
      resolve(stale && retry ? postFrom(url, options, false) : { status: 0, text: "" });
    });
    request.end(body);
  });
}
