/**
 * The database socket (db/coalescing-socket.ts) against the real Postgres at 127.0.0.1:5432
 * (POSTGRES_TEST_URL overrides), through a local TCP relay that records what the client sends:
 * statements issued together leave in one write and come back right, and a database that can't be
 * reached fails the queries with an error the API maps to 503.
 */
import net, { type AddressInfo } from "node:net";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { coalescesWritesFor, connectCoalescing } from "@/db/coalescing-socket";
import { isDatabaseUnavailable } from "@/db/errors";

const TARGET = new URL(process.env.POSTGRES_TEST_URL ?? "postgres://postgres@127.0.0.1:5432/postgres");

/** A relay to Postgres that keeps every chunk the client sent, in order. */
type Relay = { url: string; chunks: Buffer[]; server: net.Server };

async function startRelay(port = 0): Promise<Relay> {
  const chunks: Buffer[] = [];
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(TARGET.port || 5432), TARGET.hostname);
    client.on("data", (c: Buffer) => {
      chunks.push(c);
      upstream.write(c);
    });
    upstream.on("data", (c) => client.write(c));
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
    client.on("error", () => upstream.destroy());
    upstream.on("error", () => client.destroy());
  });
  await new Promise<void>((r) => server.listen(port, "127.0.0.1", r));
  const url = Object.assign(new URL(TARGET.toString()), { port: String((server.address() as AddressInfo).port) });
  return { url: url.toString(), chunks, server };
}

let relay: Relay;
beforeAll(async () => {
  relay = await startRelay();
});
afterAll(() => new Promise<void>((r) => relay.server.close(() => r())));

const socketOption = { socket: connectCoalescing } as object;

describe("the database socket", () => {
  it("sends statements issued together in one write, and each gets its own answer", async () => {
    // What the socket hands the kernel: one `_writev` (or `_write`) call is one system call.
    const writes: Buffer[][] = [];
    const spied = async (options: Parameters<typeof connectCoalescing>[0]) => {
      const socket = await connectCoalescing(options);
      const s = socket as unknown as Record<"_write" | "_writev", (...a: unknown[]) => unknown>;
      const [write, writev] = [s._write, s._writev];
      s._write = function (chunk, ...rest) {
        writes.push([chunk as Buffer]);
        return write.call(this, chunk, ...rest);
      };
      s._writev = function (chunks, ...rest) {
        writes.push((chunks as { chunk: Buffer }[]).map((c) => c.chunk));
        return writev.call(this, chunks, ...rest);
      };
      return socket;
    };
    const sql = postgres(relay.url, { max: 1, prepare: true, onnotice: () => {}, ...({ socket: spied } as object) });
    try {
      const statement = (db: postgres.Sql | postgres.TransactionSql, t: string) =>
        db`select ${t}::text as t, length(${t}::text) as n`.then(([row]) => row);
      // Connected, and the statement prepared: the driver pipelines only statements it has prepared.
      await statement(sql, "warm");
      // Each statement is over 1 KiB, which the driver would otherwise write on its own at once.
      const texts = Array.from({ length: 6 }, (_, i) => `${i}:${"x".repeat(1500 + i)}`);
      const [before, relayed] = [writes.length, relay.chunks.length];
      const answers = await sql.begin((tx) => Promise.all(texts.map((t) => statement(tx, t))));
      expect(answers.map((a) => a.t)).toEqual(texts);
      expect(answers.map((a) => a.n)).toEqual(texts.map((t) => t.length));
      // BEGIN, the six statements, COMMIT: three writes, the statements' one holding all six.
      const sent = writes.slice(before).map((chunks) => Buffer.concat(chunks));
      const withStatements = sent.filter((c) => c.includes(Buffer.from("x".repeat(1500))));
      expect(withStatements).toHaveLength(1);
      expect(texts.every((t) => withStatements[0].includes(Buffer.from(t)))).toBe(true);
      // And that is what reached Postgres, byte for byte.
      expect(Buffer.concat(relay.chunks.slice(relayed))).toEqual(Buffer.concat(sent));
    } finally {
      await sql.end({ timeout: 5 });
    }
  });

  it("keeps statements in the order they were issued when they depend on each other", async () => {
    const sql = postgres(relay.url, { max: 1, onnotice: () => {}, ...socketOption });
    try {
      const rows = await sql.begin(async (tx) => {
        const made = tx`create temporary table coalesce_order (n int) on commit drop`;
        const inserted = tx`insert into coalesce_order select generate_series(1, 50)`;
        const counted = tx`select count(*)::int as c, sum(n)::int as s from coalesce_order`;
        return (await Promise.all([made, inserted, counted]))[2];
      });
      expect(rows[0]).toEqual({ c: 50, s: 1275 });
    } finally {
      await sql.end({ timeout: 5 });
    }
  });

  it("fails the queries with a database-unavailable error while nothing listens, and works once something does", async () => {
    const probe = net.createServer();
    await new Promise<void>((r) => probe.listen(0, "127.0.0.1", r));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((r) => probe.close(() => r()));
    const sql = postgres(Object.assign(new URL(TARGET.toString()), { port: String(port) }).toString(), {
      max: 1,
      connect_timeout: 2,
      backoff: () => 0.05,
      onnotice: () => {},
      ...socketOption,
    });
    let later: Relay | undefined;
    try {
      const err = await sql`select 1`.then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toMatchObject({ code: "ECONNREFUSED" });
      expect(isDatabaseUnavailable(err)).toBe(true);
      // The database is back on that address: the same client reconnects by itself.
      later = await startRelay(port);
      await expect
        .poll(
          () =>
            sql`select 41 + 1 as n`.then(
              ([row]) => row.n,
              () => null,
            ),
          { timeout: 10_000 },
        )
        .toBe(42);
    } finally {
      await sql.end({ timeout: 1 });
      await new Promise<void>((r) => (later ? later.server.close(() => r()) : r()));
    }
  });

  it("is used for a URL with one host, not for one naming several (the driver fails over itself)", () => {
    expect(coalescesWritesFor("postgres://app:secret@db.internal:5432/goodfund")).toBe(true);
    expect(coalescesWritesFor("postgres://app@10.0.0.5/goodfund?sslmode=require")).toBe(true);
    expect(coalescesWritesFor("postgres://app:p%40ss@db-a:5432,db-b:5432/goodfund")).toBe(false);
  });
});
