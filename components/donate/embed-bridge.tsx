"use client";

import { useEffect } from "react";

/** The messages the embeddable form sends its parent page (lib/embed/embed-script.ts listens for them). */
export const RESIZE_MESSAGE = "goodfund:resize";
export const ESCAPE_MESSAGE = "goodfund:escape";

/**
 * Inside another site's frame: tells the parent page how tall the form is whenever that changes
 * (a step, an error, the card form loading), so the frame fits it without a scroll bar, and that
 * the donor pressed Escape, so an overlay can close (the parent never sees keys pressed in a
 * frame of another origin). Neither reveals anything, so any parent may read them (`*`); the
 * form listens to no message in return.
 */
export function EmbedBridge() {
  useEffect(() => {
    if (window.parent === window) return;
    let last = -1;
    const send = () => {
      const height = Math.ceil(document.body.getBoundingClientRect().height);
      if (height === last) return;
      last = height;
      window.parent.postMessage({ type: RESIZE_MESSAGE, height }, "*");
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape" && !e.defaultPrevented) window.parent.postMessage({ type: ESCAPE_MESSAGE }, "*");
    };
    const observer = new ResizeObserver(send);
    observer.observe(document.body);
    document.addEventListener("keydown", onKey);
    send();
    return () => {
      observer.disconnect();
      document.removeEventListener("keydown", onKey);
    };
  }, []);
  return null;
}
