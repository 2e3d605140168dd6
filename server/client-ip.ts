// The client's address as the socket saw it, written on every request with a proof the app checks
// (lib/api/client-ip.ts): an HMAC of the address under a key this process makes at start-up and
// hands to the app in its environment (CLIENT_IP_KEY_ENV). A client-IP header without a valid
// proof (sent by a client, or under a server that is not this one) is ignored.
import { createHmac, randomBytes } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { CLIENT_IP_HEADER, CLIENT_IP_KEY_ENV, CLIENT_IP_PROOF_HEADER, isLoopbackAddress } from "@/lib/api/client-ip";

/**
 * Makes this process's key (before Next.js loads, which reads it per request) and answers the
 * function that stamps a request with its socket address and proof. With no trusted proxy
 * configured, the first request that reaches us from this host with forwarding headers (a
 * reverse proxy on the same machine) logs that every client then looks the same.
 */
export function clientIpStamper(trustedProxies: number, warn: (line: string) => void = console.warn) {
  const key = randomBytes(32);
  process.env[CLIENT_IP_KEY_ENV] = key.toString("base64url");
  // Each address's proof is made once: a client's every request comes from the same few addresses.
  // Bounded: a flood of distinct addresses starts the table over instead of growing it.
  const proofs = new Map<string, string>();
  let warned = trustedProxies > 0;
  return (req: IncomingMessage): void => {
    const address = req.socket.remoteAddress ?? "";
    let proof = proofs.get(address);
    if (proof === undefined) {
      if (proofs.size >= 4096) proofs.clear();
      proof = createHmac("sha256", key).update(address).digest("base64url");
      proofs.set(address, proof);
    }
    req.headers[CLIENT_IP_HEADER] = address;
    req.headers[CLIENT_IP_PROOF_HEADER] = proof;
    if (!warned && (req.headers["x-forwarded-for"] || req.headers.forwarded) && isLoopbackAddress(address)) {
      warned = true;
      warn(
        JSON.stringify({
          level: "error",
          msg:
            "requests arrive through a proxy on this host but TRUST_PROXY is not set: every client has this host's address, " +
            "so all share one rate limit and one card-testing count. Set TRUST_PROXY to the number of proxies in front of the app.",
        }),
      );
    }
  };
}
