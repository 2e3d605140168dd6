"use client";

import { useEffect, useRef, type ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { Notice } from "@/components/ui/notice";

/**
 * A secret shown once (a new API key, a webhook signing secret): a warning titled `title`, the
 * words in `children`, the value in a read-only field (`id`, named `label` for screen readers) with
 * a copy button, and a button to hide it for good. Focus moves here whenever a new value shows, so
 * nobody misses it. `wrap` lets the copy button wrap under a long value.
 */
export function SecretReveal({
  title,
  id,
  label,
  value,
  copyLabel,
  copiedLabel,
  wrap = false,
  onDone,
  children,
}: {
  title: string;
  id: string;
  label: string;
  value: string;
  copyLabel: string;
  copiedLabel: string;
  wrap?: boolean;
  onDone: () => void;
  children: ReactNode;
}) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => box.current?.focus(), [value]);
  return (
    <div ref={box} tabIndex={-1} style={{ outline: "none" }}>
      <Notice
        tone="warn"
        live
        title={title}
        actions={
          <Button variant="secondary" onClick={onDone}>
            I&apos;ve saved it
          </Button>
        }
      >
        {children}
        <div className="copy-row" style={wrap ? { marginTop: 10, flexWrap: "wrap" } : { marginTop: 10 }}>
          <label htmlFor={id} className="sr-only">
            {label}
          </label>
          <input
            id={id}
            className="input mono"
            readOnly
            value={value}
            onFocus={(e) => e.currentTarget.select()}
            style={wrap ? { flexBasis: 240 } : undefined}
          />
          <CopyButton value={value} label={copyLabel} copiedLabel={copiedLabel} />
        </div>
      </Notice>
    </div>
  );
}
