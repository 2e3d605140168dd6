/**
 * Who is acting on a request: a signed-in person, or an organization's API key (which acts with
 * its own role on its own organization only). Null on public calls.
 */
export type Actor =
  | { type: "user"; id: string; label: string | null }
  | { type: "api_key"; id: string; label: string; orgId: string; role: "ADMIN" | "MEMBER" };
