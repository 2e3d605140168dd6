"use client";

import { useRef } from "react";
import { friendlyMessage } from "./api-client";
import { checkOrgField } from "./org-field-check";

/**
 * Checks a field against the API's organization schema (on the server) and reports the message,
 * dropping answers that arrive after the field has been checked again.
 */
export function useOrgFieldCheck(form: "create" | "update" | "member") {
  const seq = useRef<Record<string, number>>({});
  return async function check(field: string, value: unknown, report: (message: string | null) => void) {
    const n = (seq.current[field] ?? 0) + 1;
    seq.current[field] = n;
    let message: string | null = null;
    try {
      message = await checkOrgField(form, field, value);
    } catch {
      return; // Offline or the server is restarting: the submit will report it.
    }
    if (seq.current[field] === n) report(message === null ? null : friendlyMessage(message));
  };
}
