"use client";

import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";
import { useTranslations } from "use-intl";

/**
 * Re-renders the server page a few times while a payment is still being confirmed (Stripe's
 * webhook may arrive after the donor is redirected back), then stops and says so.
 */
export function AutoRefresh({
  attempts = 6,
  intervalMs = 2500,
  className,
}: {
  attempts?: number;
  intervalMs?: number;
  className?: string;
}) {
  const router = useRouter();
  const [done, setDone] = useState(0);
  const t = useTranslations("donate.thanks");
  useEffect(() => {
    if (done >= attempts) return;
    const t = setTimeout(
      () => {
        router.refresh();
        setDone((n) => n + 1);
      },
      intervalMs * (1 + done * 0.5),
    );
    return () => clearTimeout(t);
  }, [done, attempts, intervalMs, router]);

  return (
    <p className={className} role="status">
      {done < attempts ? t("checking") : t("slow")}
    </p>
  );
}
