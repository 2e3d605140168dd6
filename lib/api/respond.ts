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

/**
 * A PDF file as a download (a receipt, a statement). A person's own papers: `private, no-store`,
 * never kept by shared caches.
 */
export function pdfResponse(file: { filename: string; content: Buffer }): Response {
  return new Response(new Uint8Array(file.content), {
    status: 200,
    headers: {
      "content-type": "application/pdf",
      "content-disposition": `attachment; filename="${file.filename}"`,
      "content-length": String(file.content.length),
      "cache-control": "private, no-store",
    },
  });
}

/** A CSV file as a download (an export): built for this request, never cached. */
export function csvResponse(csv: string, filename: string): Response {
  return new Response(csv, {
    status: 200,
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="${filename}"`,
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
    },
  });
}

export function errorResponse(err: ApiError): Response {
  const body: ErrorBody = { error: err.message, status: err.status };
  if (err.code) body.code = err.code;
  if (err.details) body.details = err.details;
  return json(body, { status: err.status, headers: err.headers });
}
