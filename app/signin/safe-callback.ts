/** Only same-site paths: a sign-in link must never send someone to another site. */
export function safeCallback(raw: string | undefined): string {
  if (!raw) return "/dashboard";
  try {
    const u = new URL(raw, "http://local.invalid");
    if (u.origin !== "http://local.invalid") return "/dashboard";
    return `${u.pathname}${u.search}${u.hash}` || "/dashboard";
  } catch {
    return "/dashboard";
  }
}
