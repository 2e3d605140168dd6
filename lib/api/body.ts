import { ApiError } from "./errors";

export const MAX_BODY_BYTES = 1024 * 1024;

/** The raw request body, refused with 413 past `limit` bytes without buffering the rest. */
export async function readRawBody(req: Request, limit = MAX_BODY_BYTES): Promise<Uint8Array> {
  const declared = Number(req.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > limit) throw tooLarge();
  if (!req.body) return new Uint8Array();
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      throw tooLarge();
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let offset = 0;
  for (const c of chunks) {
    out.set(c, offset);
    offset += c.byteLength;
  }
  return out;
}

const tooLarge = () => new ApiError(413, "Request body too large (limit 1 MiB)");
const utf8 = new TextDecoder("utf-8", { fatal: true });

export function isJsonContentType(value: string | null): boolean {
  if (!value) return false;
  const mime = value.split(";")[0].trim().toLowerCase();
  return mime === "application/json" || /^application\/[a-z0-9.+-]+\+json$/.test(mime);
}

/** A JSON body: 415 unless declared JSON, 413 over 1 MiB, 400 `Invalid JSON body` otherwise unreadable. */
export async function readJsonBody(req: Request): Promise<unknown> {
  if (!isJsonContentType(req.headers.get("content-type"))) {
    throw new ApiError(415, "Content-Type must be application/json");
  }
  const raw = await readRawBody(req);
  let text: string;
  try {
    text = utf8.decode(raw);
  } catch {
    throw new ApiError(400, "Invalid JSON body");
  }
  if (text.trim() === "") throw new ApiError(400, "Invalid JSON body");
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError(400, "Invalid JSON body");
  }
}
