"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";

/** A secret shown masked until asked, with a copy button that works either way. */
export function SecretField({ id, label, value, hint }: { id: string; label: string; value: string; hint?: string }) {
  const [shown, setShown] = useState(false);
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <div className="copy-row" style={{ flexWrap: "wrap" }}>
        <input
          id={id}
          className="input mono"
          readOnly
          type={shown ? "text" : "password"}
          value={value}
          onFocus={(e) => e.currentTarget.select()}
          aria-describedby={hint ? `${id}-hint` : undefined}
          style={{ flexBasis: 240 }}
        />
        <Button variant="secondary" onClick={() => setShown((s) => !s)} aria-pressed={shown}>
          {shown ? "Hide" : "Show"}
        </Button>
        <CopyButton value={value} label="Copy token" copiedLabel="Token copied" />
      </div>
      {hint ? (
        <p className="hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
    </div>
  );
}
