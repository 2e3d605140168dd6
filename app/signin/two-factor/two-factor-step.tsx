"use client";

import { SecondFactorForm } from "@/components/security/second-factor-form";

/** The form of the second sign-in step; once passed, the dashboard page that asked opens. */
export function TwoFactorStep({ callbackUrl, totp, passkeys }: { callbackUrl: string; totp: boolean; passkeys: boolean }) {
  return <SecondFactorForm totp={totp} passkeys={passkeys} onPassed={() => window.location.assign(callbackUrl)} />;
}
