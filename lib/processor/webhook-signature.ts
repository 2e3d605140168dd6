import Stripe from "stripe";

let verifier: Stripe | undefined;

/** Refuses every request: the verifier client exists only for `webhooks.*`. */
class NoNetworkHttpClient extends Stripe.HttpClient {
  override getClientName(): string {
    return "goodfund-no-network";
  }
  override makeRequest(): Promise<never> {
    return Promise.reject(new Error("The webhook verifier client makes no API requests"));
  }
}

/**
 * A client for `webhooks.constructEventAsync` / `generateTestHeaderString`, usable without a
 * secret key (sandbox mode signs its events with Stripe's scheme too). Signature checks are
 * local HMACs; this client is built with a placeholder key and an HTTP client that refuses to
 * send, so it can never reach the network.
 */
export function webhookVerifier(): Stripe {
  verifier ??= new Stripe("sk_webhook_verifier_placeholder", {
    maxNetworkRetries: 0,
    httpClient: new NoNetworkHttpClient(),
    appInfo: { name: "Goodfund" },
    telemetry: false,
  });
  return verifier;
}

/**
 * The `Stripe-Signature` header for a payload, as Stripe makes it (`t=<unix seconds>,v1=<HMAC-SHA256
 * of "t.payload">`): how the sandbox, the tests, the reliability runs and the benchmark sign the
 * events they send.
 */
export function signPayload(payload: string, secret: string, timestamp?: number): string {
  return webhookVerifier().webhooks.generateTestHeaderString({ payload, secret, ...(timestamp === undefined ? {} : { timestamp }) });
}
