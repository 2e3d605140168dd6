import Stripe from "stripe";
import { getEnv } from "@/lib/env";
import { ProcessorError } from "./types";

export { webhookVerifier } from "./webhook-signature";

/**
 * The Stripe SDK client, made once per secret key and API host.
 *
 * `STRIPE_API_HOST` (a URL such as `http://127.0.0.1:12111`) points the SDK at another server:
 * stripe-mock, or the local fake the integration tests run. The SDK pins the API version it was
 * generated for (`Stripe.API_VERSION`), so requests always carry that `Stripe-Version`.
 */

let cached: { cacheKey: string; client: Stripe } | undefined;

type Address = Pick<Stripe.StripeConfig, "host" | "port" | "protocol">;

/** `http://127.0.0.1:12111` → `{ host, port, protocol }`. A value without a scheme is taken as https. */
export function parseApiHost(value: string | undefined): Address {
  if (!value) return {};
  let url: URL;
  try {
    url = new URL(value.includes("://") ? value : `https://${value}`);
  } catch {
    throw new ProcessorError(`STRIPE_API_HOST is not a valid URL: ${value}`, "invalid_configuration");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ProcessorError(`STRIPE_API_HOST must be an http or https URL: ${value}`, "invalid_configuration");
  }
  const protocol = url.protocol === "http:" ? "http" : "https";
  const port = url.port ? Number(url.port) : protocol === "http" ? 80 : 443;
  // URL keeps IPv6 literals bracketed; node:http wants them bare.
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  return { host, port, protocol };
}

/** The shared client. Throws a ProcessorError when STRIPE_SECRET_KEY is not set (sandbox mode). */
export function getStripe(): Stripe {
  const env = getEnv();
  const key = env.STRIPE_SECRET_KEY;
  if (!key) throw new ProcessorError("Stripe is not configured (STRIPE_SECRET_KEY is not set)", "not_configured");
  const cacheKey = `${key}\u0000${env.STRIPE_API_HOST ?? ""}`;
  if (cached && cached.cacheKey === cacheKey) return cached.client;
  const client = new Stripe(key, {
    maxNetworkRetries: 2,
    timeout: 20_000,
    appInfo: { name: "Goodfund" },
    ...parseApiHost(env.STRIPE_API_HOST),
  });
  cached = { cacheKey, client };
  return client;
}
