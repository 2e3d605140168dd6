// One write system call per turn of the event loop for a socket, for both kinds of connection the
// server has: its HTTP clients (scripts/server.mjs) and Postgres (db/coalescing-socket.ts). A plain
// ES module, so that the server loads it without a TypeScript loader.

/**
 * Holds what is written to `socket` during one turn of the event loop (the current callback and
 * the promise reactions it starts) and sends it in a single `writev` at that turn's check phase.
 * Bytes, order, callbacks and backpressure are unchanged; a write in a later turn leaves at the
 * end of that turn, so a streamed response is not held back. `end()` sends what is held at once.
 *
 * Why: on a loopback or virtualized connection each write is a system call that wakes the peer,
 * tens of microseconds of the server's one thread. Next.js sends a response's headers
 * (`flushHeaders`) and its body in two writes, and the postgres driver writes each statement of
 * 1 KiB or more on its own, so a transaction that issues several at once cost one call each.
 */
export function coalesceWrites(socket) {
  const write = socket.write;
  let holding = false;
  socket.write = function (...args) {
    if (!holding) {
      holding = true;
      this.cork();
      // After the callbacks and promise reactions of this turn (a nextTick would run between two
      // of a driver's statements, or between Next.js's headers and body).
      setImmediate(() => {
        holding = false;
        this.uncork();
      });
    }
    return write.apply(this, args);
  };
  return socket;
}
