import net from "node:net";
import { coalesceWrites } from "@/scripts/coalesce-writes.mjs";

// The postgres driver writes each statement to its socket on its own as soon as the statement is
// 1 KiB or more (smaller ones wait for the next turn of the event loop), so a transaction that
// issues several statements at once (moveDonation's pipelined batches) would cost one `write`
// system call each; coalesceWrites sends what one turn writes in one `writev`. Installed after
// `connect()`, which resets an own `write` to net.Socket's.

/** What the driver passes its `socket` option: its parsed connection options. */
type DriverOptions = { host: string[]; port: number[]; path: string | false };

/**
 * The driver's `socket` option: a coalescing socket connecting to where the driver would connect
 * (a Unix socket path, else the first host and port; a URL naming several hosts keeps the
 * driver's own sockets, see `coalescesWritesFor`). It is handed over while it connects, as the
 * driver's own is: what the driver writes meanwhile waits for the connection, and a refused
 * connection, a timeout (the driver's connect_timeout) or a drop reaches the driver through the
 * socket's `error` and `close` events, so it fails the waiting queries and reconnects later as it
 * always does.
 */
export function connectCoalescing(options: DriverOptions): net.Socket {
  const socket = new net.Socket();
  if (options.path) socket.connect(options.path);
  else socket.connect(options.port[0], options.host[0]);
  // Read by the driver for TLS (the server name) and its error messages.
  Object.assign(socket, { host: options.host[0], port: options.port[0] });
  coalesceWrites(socket);
  return socket;
}

/** Whether a DATABASE_URL can use connectCoalescing: one host (the driver fails over between several itself). */
export function coalescesWritesFor(url: string): boolean {
  const authority = url.slice(url.indexOf("://") + 3).split(/[/?]/)[0];
  return !authority.slice(authority.lastIndexOf("@") + 1).includes(",");
}
