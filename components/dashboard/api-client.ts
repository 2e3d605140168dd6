"use client";

import { fieldTexts, type IssueCode } from "@/components/forms/issue-text";

/**
 * Calls Goodfund's REST API from the browser, same origin: the session cookie is the Bearer
 * token (the API reads either), so the dashboard uses exactly the endpoints it documents.
 */
export type ApiFailure = {
  ok: false;
  status: number;
  error: string;
  fieldErrors: Record<string, string[]>;
  formErrors: string[];
  /** Each field's machine-readable problems (`details.codes`), which the forms word for people. */
  codes: Record<string, IssueCode[]>;
  /** The body's `code` on the refusals a client acts on (`recent_two_factor_required`, ...). */
  code?: string;
};
export type ApiResult<T> = { ok: true; status: number; data: T } | ApiFailure;

type Method = "GET" | "POST" | "PATCH" | "DELETE";

/** Asks the person for their second factor (a code or a passkey); true once passed. Set by the dashboard's prompt. */
export type SecondFactorPrompt = (reason: "recent_two_factor_required" | "two_factor_required") => Promise<boolean>;
let secondFactorPrompt: SecondFactorPrompt | null = null;

/** Installs the dialog that asks for the second factor; answers the function that removes it again. */
export function setSecondFactorPrompt(prompt: SecondFactorPrompt): () => void {
  secondFactorPrompt = prompt;
  return () => {
    if (secondFactorPrompt === prompt) secondFactorPrompt = null;
  };
}

/**
 * Calls the API. A refusal that a second factor would lift (`recent_two_factor_required`, or an
 * organization's `two_factor_required` for someone who has two-factor) asks for it in a dialog
 * and, once passed, sends the same request again: the form that made it keeps what was typed.
 */
export async function api<T = unknown>(method: Method, path: string, body?: unknown): Promise<ApiResult<T>> {
  const first = await request<T>(method, path, body);
  if (first.ok || first.status !== 403 || !secondFactorPrompt) return first;
  if (first.code !== "recent_two_factor_required" && first.code !== "two_factor_required") return first;
  if (!(await secondFactorPrompt(first.code))) return first;
  return request<T>(method, path, body);
}

async function request<T>(method: Method, path: string, body?: unknown): Promise<ApiResult<T>> {
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      credentials: "same-origin",
      headers: body === undefined ? { Accept: "application/json" } : { Accept: "application/json", "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    return {
      ok: false,
      status: 0,
      error: "Could not reach the server. Check your connection and try again.",
      fieldErrors: {},
      formErrors: [],
      codes: {},
    };
  }
  const text = await res.text();
  let json: unknown = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = null;
  }
  if (res.ok) return { ok: true, status: res.status, data: json as T };
  const err = (json ?? {}) as {
    error?: string;
    code?: string;
    details?: { fieldErrors?: Record<string, string[]>; formErrors?: string[]; codes?: Record<string, IssueCode[]> };
  };
  return {
    ok: false,
    status: res.status,
    error: err.code ? (err.error ?? describe(res.status, undefined)) : describe(res.status, err.error),
    fieldErrors: err.details?.fieldErrors ?? {},
    formErrors: err.details?.formErrors ?? [],
    codes: err.details?.codes ?? {},
    ...(err.code ? { code: err.code } : {}),
  };
}

function describe(status: number, error: string | undefined): string {
  if (status === 401) return "Your session has expired. Sign in again to continue.";
  if (status === 403) return "Your role in this organization does not allow this.";
  if (status === 429) return "Too many requests. Wait a moment and try again.";
  if (status >= 500) return error && status !== 500 ? error : "Something went wrong on our side. Try again in a moment.";
  return error ?? `Request failed (${status})`;
}

/** A schema message as a person reads it: an empty required field just says so. */
export function friendlyMessage(message: string): string {
  return message === "String must contain at least 1 character(s)" ? "Required" : message;
}

/**
 * The first problem of each field, the shape the forms display: worded from its code when the
 * API gave one (`codes`), else the server's message.
 */
export function firstErrors(fieldErrors: Record<string, string[]>, codes: Record<string, IssueCode[]> = {}): Record<string, string> {
  const messages = Object.fromEntries(
    Object.entries(fieldErrors)
      .filter(([, v]) => v?.length)
      .map(([k, v]) => [k, [friendlyMessage(v[0])]]),
  );
  return fieldTexts(messages, Object.fromEntries(Object.entries(codes).filter(([k]) => k in messages)));
}
