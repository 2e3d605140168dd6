/**
 * The API's error body: `{ error, status, code?, details? }`. `code` is present on refusals a
 * client acts on: `two_factor_required` and `recent_two_factor_required` (403: pass the second
 * factor with `POST /api/me/two-factor/challenge`), `too_many_two_factor_attempts` (429).
 */
export type ApiErrorBody = { error: string; status: number; code?: string; details?: unknown };

/** An API call that answered an error status, as thrown by `paginate`. */
export class GoodfundApiError extends Error {
  readonly status: number;
  readonly body: ApiErrorBody | unknown;
  /** The response's `X-Request-Id`, to quote when asking about the failure. */
  readonly requestId: string | null;

  constructor(response: Response, body: unknown) {
    const message =
      typeof body === "object" && body !== null && typeof (body as ApiErrorBody).error === "string"
        ? (body as ApiErrorBody).error
        : `HTTP ${response.status}`;
    super(`${message} (HTTP ${response.status})`);
    this.name = "GoodfundApiError";
    this.status = response.status;
    this.body = body;
    this.requestId = response.headers.get("x-request-id");
  }
}
