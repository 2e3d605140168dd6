"use client";

import { useState, type FocusEvent } from "react";
import { Button, type ButtonSize, type ButtonVariant } from "./button";
import { FieldHint } from "./field";

/** Copies `value` to the clipboard and says so, in the button and to screen readers. */
export function CopyButton({
  value,
  label = "Copy",
  copiedLabel = "Copied",
  size = "medium",
  variant = "secondary",
  describedBy,
}: {
  value: string;
  label?: string;
  copiedLabel?: string;
  size?: ButtonSize;
  variant?: ButtonVariant;
  describedBy?: string;
}) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      setState("copied");
    } catch {
      setState("failed");
    }
    setTimeout(() => setState("idle"), 2000);
  }
  return (
    <Button variant={variant} size={size} onClick={copy} aria-describedby={describedBy}>
      <span aria-live="polite">{state === "copied" ? copiedLabel : state === "failed" ? "Press Ctrl+C to copy" : label}</span>
    </Button>
  );
}

/** A read-only field with a copy button: donate links, embed snippets, tokens. */
export function CopyField({
  id,
  label,
  value,
  multiline,
  hint,
}: {
  id: string;
  label: string;
  value: string;
  multiline?: boolean;
  hint?: string;
}) {
  // Read-only; focusing it selects it all, ready to copy by hand.
  const control = {
    id,
    readOnly: true,
    value,
    onFocus: (e: FocusEvent<HTMLInputElement | HTMLTextAreaElement>) => e.currentTarget.select(),
    "aria-describedby": hint ? `${id}-hint` : undefined,
  };
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <div className="copy-row">
        {multiline ? <textarea className="textarea snippet" {...control} /> : <input className="input mono" {...control} />}
        <CopyButton value={value} label="Copy" describedBy={id} />
      </div>
      <FieldHint id={id} hint={hint} />
    </div>
  );
}
