import { ApiError, type ValidationDetails } from "./errors";

export type ErrorBody = { error: string; status: number; code?: string; details?: ValidationDetails };

export function json(data: unknown, init: { status?: number; headers?: Record<string, string> } = {}): Response {
  return new Response(JSON.stringify(data), {
    status: init.status ?? 200,
    headers: { "content-type": "application/json; charset=utf-8", ...init.headers },
  });
}

export const ok = (data: unknown) => json(data);
export const created = (data: unknown) => json(data, { status: 201 });
export const noContent = () => new Response(null, { status: 204 });

export function errorResponse(err: ApiError): Response {
  const body: ErrorBody = { error: err.message, status: err.status };
  if (err.code) body.code = err.code;
  if (err.details) body.details = err.details;
  return json(body, { status: err.status, headers: err.headers });
}
