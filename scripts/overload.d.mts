// Types of scripts/overload.mjs (a plain ES module the server loads without a TypeScript loader).
import type { IncomingMessage, ServerResponse } from "node:http";

export type RequestClass = "priority" | "api" | "pages" | "reports";
export type ClassLimit = { name: string; limit: number; queue: number; maxWaitMs: number; overflowOf?: string };
export type ClassStats = { active: number; waiting: number; admitted: number; shed: number; abandoned: number };
export type Limiter = {
  acquire(name: string, signal?: AbortSignal): Promise<(() => void) | null>;
  tryAcquire(name: string): (() => void) | null;
  snapshot(): Record<string, ClassStats>;
};

export const LOAD_HEADER: "x-goodfund-load";
export const SHED_HEADER: "X-Goodfund-Shed";
export function createLimiter(classes: ClassLimit[]): Limiter;
export function requestClass(method: string, pathname: string): RequestClass | null;
export function overloadLimits(env?: Record<string, string | undefined>, cores?: number): ClassLimit[];
export function sheddingEnabled(env?: Record<string, string | undefined>): boolean;
export function createOverloadGuard(o?: { env?: Record<string, string | undefined>; cores?: number; warn?: (line: string) => void }): {
  guard(req: IncomingMessage, res: ServerResponse, run: () => void): Promise<void>;
  limiter: Limiter;
  enabled: boolean;
};
