import http from "node:http";
import { freePort } from "./server";

export type LocalOidcProvider = { issuer: string; clientId: string; clientSecret: string; close: () => Promise<void> };

/**
 * A real OpenID Connect provider on this machine for the single sign-on tests: the certified
 * `oidc-provider` package with its development login form (any login name is the account; its
 * email is the login when it looks like one, and is verified unless the login starts with
 * "unverified"), one confidential client whose only redirect URI is
 * `redirectUri`, PKCE required, and the email claims in the ID token.
 */
export async function startOidcProvider(redirectUri: string): Promise<LocalOidcProvider> {
  const { default: Provider } = await import("oidc-provider");
  const port = await freePort();
  const issuer = `http://127.0.0.1:${port}`;
  const clientId = "goodfund-test";
  const clientSecret = "goodfund-test-client-secret-0123456789";
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [redirectUri],
        grant_types: ["authorization_code"],
        response_types: ["code"],
      },
    ],
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
    conformIdTokenClaims: false,
    pkce: { required: () => true },
    cookies: { keys: ["goodfund-test-oidc-cookie-key"] },
    features: { devInteractions: { enabled: true } },
    async findAccount(_ctx: unknown, sub: string) {
      return {
        accountId: sub,
        async claims() {
          // A login starting "unverified" stands for an address the provider never verified.
          const email = sub.includes("@") ? sub : `${sub}@sso.example.org`;
          return { sub, email, email_verified: !sub.startsWith("unverified"), name: "Sam Single-Sign-On" };
        },
      };
    },
  });
  // Its own failures are a test's clue: printed, not swallowed into "oops! something went wrong".
  provider.on("server_error", (_ctx: unknown, err: unknown) => console.error("oidc-provider server_error:", err));
  const server = http.createServer(provider.callback());
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    issuer,
    clientId,
    clientSecret,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
