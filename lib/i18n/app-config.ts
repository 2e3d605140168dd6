import type { Messages } from "./catalog";

// Typed keys (the locale stays a plain `Intl` tag: en-US, es, fr, de): `t("donate.missing")` is a compile error, checked against the English catalog.
declare module "use-intl" {
  interface AppConfig {
    Messages: Messages;
  }
}
