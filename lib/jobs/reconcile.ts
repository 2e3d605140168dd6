import { getDb } from "@/db";
import { getEnv } from "@/lib/env";
import { errorFields, log } from "@/lib/log";
import { getProcessor } from "@/lib/services/processor/get-processor";
import { reconcileWithProcessor } from "@/lib/services/processor/reconcile";

/** How often each instance asks whether a reconciliation is due (the database decides which one runs). */
const CHECK_EVERY_MS = 60_000;

export type ReconcilerHandle = { stop: () => Promise<void> };

/**
 * Reconciles with the processor every `RECONCILE_EVERY_MINUTES`: each instance checks once a
 * minute, and a run starts only when no run (on any instance) started within the interval and
 * none is in progress, so many instances still make one run per interval. A setTimeout chain,
 * so checks never overlap; errors are logged, never thrown.
 */
export function startReconciler(options: { keepAlive?: boolean; checkEveryMs?: number } = {}): ReconcilerHandle {
  const checkEveryMs = options.checkEveryMs ?? CHECK_EVERY_MS;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;

  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(tick, checkEveryMs);
    if (!options.keepAlive) timer.unref();
  };

  const tick = () => {
    timer = undefined;
    running = (async () => {
      try {
        await reconcileWithProcessor(await getDb(), await getProcessor(), {
          trigger: "schedule",
          dueAfterMinutes: getEnv().RECONCILE_EVERY_MINUTES,
        });
      } catch (err) {
        log.error("reconciliation check failed", errorFields(err));
      }
      running = undefined;
      schedule();
    })();
  };

  schedule();
  return {
    stop: async () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
