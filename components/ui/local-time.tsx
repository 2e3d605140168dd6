"use client";

import { useSyncExternalStore } from "react";

const FORMAT: Intl.DateTimeFormatOptions = { dateStyle: "medium", timeStyle: "short" };
const noSubscription = () => () => {};

/**
 * A time in the reader's own time zone. The server renders it in UTC (it does not know the
 * reader's zone); the browser renders the local time from hydration on.
 */
export function LocalTime({ iso, dateOnly }: { iso: string; dateOnly?: boolean }) {
  const options: Intl.DateTimeFormatOptions = dateOnly ? { dateStyle: "medium" } : FORMAT;
  const text = useSyncExternalStore(
    noSubscription,
    () => new Intl.DateTimeFormat(undefined, options).format(new Date(iso)),
    () => `${new Intl.DateTimeFormat("en-US", { ...options, timeZone: "UTC" }).format(new Date(iso))}${dateOnly ? "" : " UTC"}`,
  );
  return <time dateTime={iso}>{text}</time>;
}
