// `npm run token -- --email you@example.org [--name "Ada"] [--hours 1]`: prints a session token
// (the same JWT the dashboard's session cookie holds) for `Authorization: Bearer`.
import { createHash } from "node:crypto";
import { parseArgs } from "node:util";
import { issueSessionToken } from "@/lib/services/sessions/session-token";

const { values } = parseArgs({
  options: { email: { type: "string" }, name: { type: "string" }, hours: { type: "string" }, sub: { type: "string" } },
});
const email = values.email?.trim();
if (!email || !/^[^@\s]+@[^@\s]+$/.test(email)) {
  console.error('Usage: npm run token -- --email you@example.org [--name "Ada"] [--hours 1]');
  process.exit(2);
}
// A stable subject per email, so every token for one email is the same user.
const sub = values.sub ?? `usr_${createHash("sha256").update(email.toLowerCase()).digest("hex").slice(0, 20)}`;
const hours = values.hours ? Number(values.hours) : undefined;
if (hours !== undefined && !(hours > 0)) {
  console.error("--hours must be a positive number");
  process.exit(2);
}
issueSessionToken({ sub, email, name: values.name ?? null }, hours ? Math.round(hours * 3600) : undefined).then(
  (token) => process.stdout.write(`${token}\n`),
  (err: Error) => {
    console.error(err.message);
    process.exit(1);
  },
);
