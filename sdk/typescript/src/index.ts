export { createClient, type GoodfundClient, type GoodfundClientOptions, type ListItem, type ListPath } from "./client.js";
export { GoodfundApiError, type ApiErrorBody } from "./errors.js";
export { paginate, type CursorPagination, type FetchResult, type Page, type PagePagination, type PagePosition } from "./paginate.js";
export { backoffMs, retryAfterMs, retryingFetch, type FetchLike, type RetryOptions } from "./retry.js";
export type { components, operations, paths } from "./schema.js";
export { verifyWebhook, WebhookVerificationError, type WebhookEvent, type WebhookEventType, type WebhookHeaders } from "./webhooks.js";
