"use client";

import { useEffect, useState } from "react";

const FORMAT: Intl.DateTimeFormatOptions = { dateStyle: "medium", timeStyle: "short" };

/**
 * A time in the reader's own time zone. The server renders it in UTC (it does not know the
 * reader's zone); the browser replaces it after hydration.
 */
export function LocalTime({ iso, dateOnly }: { iso: string; dateOnly?: boolean }) {
  const options: Intl.DateTimeFormatOptions = dateOnly ? { dateStyle: "medium" } : FORMAT;
  const [text, setText] = useState(
    () => `${new Intl.DateTimeFormat("en-US", { ...options, timeZone: "UTC" }).format(new Date(iso))}${dateOnly ? "" : " UTC"}`,
  );
  useEffect(() => {
    setText(new Intl.DateTimeFormat(undefined, options).format(new Date(iso)));
  }, [iso, dateOnly]);
  return <time dateTime={iso}>{text}</time>;
}
