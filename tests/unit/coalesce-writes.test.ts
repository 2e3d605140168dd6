/**
 * scripts/coalesce-writes.mjs on the server's HTTP connections (scripts/server.mjs): what a
 * response writes during one turn of the event loop leaves in one system call, a streamed
 * response still leaves turn by turn, and the bytes are unchanged.
 */
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { coalesceWrites } from "../../scripts/coalesce-writes.mjs";

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** A server whose connections count the writes they hand the kernel (one `_write` or `_writev` call each). */
async function serve(handler: Handler, coalesce: boolean) {
  const writes: number[] = [];
  const server = http.createServer(handler);
  server.on("connection", (socket: Socket) => {
    if (coalesce) coalesceWrites(socket);
    const s = socket as unknown as Record<"_write" | "_writev", (...a: unknown[]) => unknown>;
    const [write, writev] = [s._write, s._writev];
    s._write = function (...a) {
      writes.push(performance.now());
      return write.apply(this, a);
    };
    s._writev = function (...a) {
      writes.push(performance.now());
      return writev.apply(this, a);
    };
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  servers.push(server);
  return { port: (server.address() as AddressInfo).port, writes };
}

const servers: http.Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

/** GETs `path` on a keep-alive agent: status, body, and when each chunk of the body arrived. */
function get(port: number, agent: http.Agent, path = "/") {
  return new Promise<{ status: number; body: string; arrivals: number[] }>((resolve, reject) => {
    http
      .get({ host: "127.0.0.1", port, path, agent }, (res) => {
        const chunks: Buffer[] = [];
        const arrivals: number[] = [];
        res.on("data", (c: Buffer) => {
          chunks.push(c);
          arrivals.push(performance.now());
        });
        res.on("end", () => resolve({ status: res.statusCode!, body: Buffer.concat(chunks).toString(), arrivals }));
      })
      .on("error", reject);
  });
}

// What Next.js does for a route handler's JSON: the headers flushed on their own, then the body.
const json: Handler = (_req, res) => {
  res.setHeader("content-type", "application/json");
  res.flushHeaders();
  res.write('{"received":');
  res.end("true}");
};

describe("coalesceWrites on HTTP connections", () => {
  it("sends a response written in one turn in one write, where the plain socket makes several; keep-alive requests all answered", async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const plain = await serve(json, false);
      await get(plain.port, agent);
      expect(plain.writes.length).toBeGreaterThan(1);

      const coalesced = await serve(json, true);
      for (let i = 0; i < 3; i++) {
        const before = coalesced.writes.length;
        const answer = await get(coalesced.port, agent, `/${i}`);
        expect(answer).toMatchObject({ status: 200, body: '{"received":true}' });
        expect(coalesced.writes.length - before).toBe(1);
      }
    } finally {
      agent.destroy();
    }
  });

  it("lets a streamed response's chunks leave turn by turn, the first before the next is written", async () => {
    let secondWrittenAt = 0;
    const stream = await serve((_req, res) => {
      res.write("first;");
      setTimeout(() => {
        secondWrittenAt = performance.now();
        res.end("second");
      }, 200);
    }, true);
    const agent = new http.Agent({ keepAlive: false });
    try {
      const answer = await get(stream.port, agent);
      expect(answer.body).toBe("first;second");
      expect(answer.arrivals[0]).toBeLessThan(secondWrittenAt);
      expect(stream.writes.length).toBeGreaterThanOrEqual(2);
    } finally {
      agent.destroy();
    }
  });

  it("keeps the bytes and their order for a large body written in many pieces, with backpressure", async () => {
    const pieces = Array.from({ length: 2000 }, (_, i) => `${i}:${"y".repeat(500)}\n`);
    const big = await serve((_req, res) => {
      let i = 0;
      const more = () => {
        while (i < pieces.length) if (!res.write(pieces[i++])) return void res.once("drain", more);
        res.end();
      };
      more();
    }, true);
    const agent = new http.Agent({ keepAlive: false });
    try {
      const answer = await get(big.port, agent);
      expect(answer.body).toBe(pieces.join(""));
    } finally {
      agent.destroy();
    }
  });
});
