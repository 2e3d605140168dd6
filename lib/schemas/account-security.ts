import { z } from "zod";
import type { Passkey, UserSession } from "@/db/schema";
import { iso, plainText } from "./common";

const codeField = z
  .string()
  .min(1)
  .max(64)
  .meta({ description: "A 6-digit code from the authenticator app, or one of the recovery codes (`abcde-fghjk`).", example: "123456" });

export const codeBody = z.object({ code: codeField }).meta({ id: "TwoFactorCode" });

export const totpCodeBody = z
  .object({ code: z.string().min(1).max(64).meta({ description: "The 6-digit code the authenticator app shows now.", example: "123456" }) })
  .meta({ id: "TotpCode" });

export const twoFactorStatusSchema = z
  .object({
    enabled: z.boolean().meta({ description: "Whether the account has a second factor (an authenticator app or a passkey)." }),
    totp: z.boolean().meta({ description: "An authenticator app is set up." }),
    passkeys: z.number().int().meta({ description: "How many passkeys the account has." }),
    recoveryCodesLeft: z.number().int().meta({ description: "Unused recovery codes." }),
    sessionTwoFactorAt: z
      .string()
      .nullable()
      .meta({ description: "When the calling session last passed a second factor (its token's `twoFactorAt`); null if never." }),
  })
  .meta({ id: "TwoFactorStatus" });

export const totpEnrolmentSchema = z
  .object({
    secret: z.string().meta({ description: "The base32 secret, for typing into an app by hand. Shown this once." }),
    otpauthUrl: z.string().meta({ description: "`otpauth://totp/…` (SHA-1, 6 digits, 30 s): what the QR code carries." }),
  })
  .meta({ id: "TotpEnrolment" });

export const recoveryCodesSchema = z
  .object({
    recoveryCodes: z
      .array(z.string())
      .meta({ description: "Ten single-use codes, each a second factor once. Shown this once: only their hashes are kept." }),
  })
  .meta({ id: "RecoveryCodes" });

export const challengeTokenSchema = z
  .object({
    token: z.string().meta({ description: "A session JWT carrying `twoFactorAt` (and `sid`): use it as `Authorization: Bearer`." }),
    expiresAt: z.string().meta({ description: "When the token expires (SESSION_MAX_AGE_SECONDS from now)." }),
  })
  .meta({ id: "TwoFactorToken" });

/** The browser's WebAuthn answer (`PublicKeyCredential` as JSON, what @simplewebauthn/browser gives); checked by the verifier. */
const webauthnResponse = z
  .looseObject({
    id: z.string().min(1).max(1024),
    rawId: z.string().min(1).max(1024),
    type: z.literal("public-key"),
    response: z.record(z.string(), z.unknown()),
    clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
  })
  .meta({ description: "The `PublicKeyCredential` the browser made, as JSON (what `@simplewebauthn/browser` answers)." });

export const webauthnOptionsSchema = z
  .object({
    challengeId: z.string().meta({ description: "Names this ceremony: send it back with the answer (within 5 minutes, once)." }),
    options: z
      .record(z.string(), z.unknown())
      .meta({ description: "WebAuthn options as JSON, for `navigator.credentials.create`/`get` (or @simplewebauthn/browser)." }),
  })
  .meta({ id: "WebAuthnOptions" });

export const passkeyAnswerBody = z
  .object({ challengeId: z.string().min(1).max(100), response: webauthnResponse })
  .meta({ id: "PasskeyAnswer" });

export const registerPasskeyBody = z
  .object({
    challengeId: z.string().min(1).max(100),
    name: plainText(100).optional().meta({ description: "What to call it (`Work laptop`); a default names the device." }),
    response: webauthnResponse,
  })
  .meta({ id: "RegisterPasskey" });

export const renamePasskeyBody = z.object({ name: plainText(100, 1) }).meta({ id: "RenamePasskey" });

export const passkeyParams = z.object({ id: z.string().min(1).max(100) });

export const passkeySchema = z
  .object({
    id: z.string(),
    name: z.string(),
    synced: z.boolean().meta({ description: "A passkey that syncs between devices (a password manager's or the platform's)." }),
    createdAt: z.string(),
    lastUsedAt: z.string().nullable(),
  })
  .meta({ id: "Passkey" });

export const serializePasskey = (p: Passkey): z.output<typeof passkeySchema> => ({
  id: p.id,
  name: p.name,
  synced: p.deviceType === "multiDevice",
  createdAt: iso(p.createdAt)!,
  lastUsedAt: iso(p.lastUsedAt),
});

export const passkeyCreatedSchema = z
  .object({
    passkey: passkeySchema,
    recoveryCodes: z
      .array(z.string())
      .nullable()
      .meta({ description: "When this passkey turned two-factor on: ten recovery codes, shown this once. Null otherwise." }),
  })
  .meta({ id: "PasskeyCreated" });

export const sessionParams = z.object({ id: z.string().min(1).max(100) });

export const sessionSchema = z
  .object({
    id: z.string().meta({ description: "The session's ID: the `sid` of its tokens." }),
    device: z.string().meta({ description: "Browser and system from its User-Agent (`Chrome on macOS`)." }),
    network: z.string().meta({ description: "Where from, coarsely: the IPv4 /24 or IPv6 /48, `This computer` or a private network." }),
    method: z
      .string()
      .meta({ description: "How it signed in: `email`, `github`, `google`, `oidc`, `passkey`, `demo`, or `api` (a challenge token)." }),
    createdAt: z.string(),
    lastSeenAt: z.string().meta({ description: "Its last request, to within a few minutes." }),
    twoFactorAt: z.string().nullable().meta({ description: "When it last passed a second factor." }),
    current: z.boolean().meta({ description: "The session making this request." }),
  })
  .meta({ id: "Session" });

export const serializeSession = (s: UserSession, currentSid: string | null): z.output<typeof sessionSchema> => ({
  id: s.id,
  device: s.device,
  network: s.network,
  method: s.method,
  createdAt: iso(s.createdAt)!,
  lastSeenAt: iso(s.lastSeenAt)!,
  twoFactorAt: iso(s.twoFactorAt),
  current: s.id === currentSid,
});

export const revokedSessionsSchema = z.object({ revoked: z.number().int() }).meta({ id: "RevokedSessions" });
