"use client";

import { useRouter } from "next/navigation";
import { useEffect } from "react";

/** Re-renders the page's server data every `everyMs` while `active`, at most `times` times (waiting for a webhook). */
export function AutoRefresh({ active, everyMs = 2000, times = 15 }: { active: boolean; everyMs?: number; times?: number }) {
  const router = useRouter();
  useEffect(() => {
    if (!active) return;
    let n = 0;
    const t = setInterval(() => {
      n += 1;
      router.refresh();
      if (n >= times) clearInterval(t);
    }, everyMs);
    return () => clearInterval(t);
  }, [active, everyMs, times, router]);
  return null;
}
