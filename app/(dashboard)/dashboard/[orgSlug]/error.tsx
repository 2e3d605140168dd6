"use client";

import { useEffect, useRef } from "react";
import { Button } from "@/components/ui/button";
import { Notice } from "@/components/ui/notice";

// A page of the dashboard failed to render: say so where the page would be, and offer a retry.
export default function DashboardError({ reset }: { error: Error & { digest?: string }; reset: () => void }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <div className="stack">
      <h1 ref={heading} tabIndex={-1} style={{ margin: 0, fontSize: "1.3rem" }}>
        Something went wrong
      </h1>
      <Notice tone="error" actions={<Button onClick={reset}>Try again</Button>}>
        <p>This page could not be loaded. If it keeps happening, check the server log.</p>
      </Notice>
    </div>
  );
}
