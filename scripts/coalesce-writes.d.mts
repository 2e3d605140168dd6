// Types of scripts/coalesce-writes.mjs (a plain ES module the server loads without a TypeScript loader).
import type { Socket } from "node:net";

export function coalesceWrites<S extends Socket>(socket: S): S;
