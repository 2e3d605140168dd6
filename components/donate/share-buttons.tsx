"use client";

import { useEffect, useRef, useState } from "react";
import type { ShareLabels } from "./share-labels";
import styles from "./share.module.css";

/** Copy link, email, X and Facebook: plain intent URLs, no third-party scripts. */
export function ShareButtons({ url, title, text, labels }: { url: string; title: string; text: string; labels: ShareLabels }) {
  const [status, setStatus] = useState("");
  const newTab = <span className="sr-only"> {labels.opensInNewTab}</span>;
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );

  async function copy() {
    let ok = false;
    try {
      await navigator.clipboard.writeText(url);
      ok = true;
    } catch {
      // Older browsers or an insecure origin: select-and-copy through a temporary field.
      const field = document.createElement("textarea");
      field.value = url;
      field.setAttribute("readonly", "");
      field.style.position = "fixed";
      field.style.opacity = "0";
      document.body.appendChild(field);
      field.select();
      try {
        ok = document.execCommand("copy");
      } catch {
        ok = false;
      }
      field.remove();
    }
    setStatus(ok ? labels.copied : labels.copyThis);
    if (timer.current) clearTimeout(timer.current);
    if (ok) timer.current = setTimeout(() => setStatus(""), 4000);
  }

  const e = encodeURIComponent;
  const mailto = `mailto:?subject=${e(title)}&body=${e(`${text}\n\n${url}`)}`;
  // The social sites open in a new tab, which the link says to screen readers.
  const social = [
    { label: labels.x, href: `https://twitter.com/intent/tweet?text=${e(text)}&url=${e(url)}`, icon: "M4 4l16 16M20 4L4 20" },
    {
      label: labels.facebook,
      href: `https://www.facebook.com/sharer/sharer.php?u=${e(url)}`,
      icon: "M14 8h2.5V4.5H14A3.5 3.5 0 0 0 10.5 8v2.5H8V14h2.5v6H14v-6h2.5l.5-3.5h-3V8z",
    },
  ];

  return (
    <div className={styles.share} data-share-url={url} data-copied={labels.copied} data-copy-this={labels.copyThis}>
      <ul className={styles.list}>
        <li>
          <button type="button" className={styles.button} onClick={copy}>
            <Icon d="M9 7V5.5A2.5 2.5 0 0 1 11.5 3h5A2.5 2.5 0 0 1 19 5.5v5a2.5 2.5 0 0 1-2.5 2.5H15M5 11.5A2.5 2.5 0 0 1 7.5 9h5a2.5 2.5 0 0 1 2.5 2.5v5a2.5 2.5 0 0 1-2.5 2.5h-5A2.5 2.5 0 0 1 5 16.5z" />
            {labels.copy}
          </button>
        </li>
        <li>
          <a className={styles.button} href={mailto}>
            <Icon d="M3.5 6.5h17v11h-17zM3.5 6.5l8.5 6.5 8.5-6.5" />
            {labels.email}
          </a>
        </li>
        {social.map((site) => (
          <li key={site.href}>
            <a className={styles.button} href={site.href} target="_blank" rel="noopener noreferrer">
              <Icon d={site.icon} />
              {site.label}
              {newTab}
            </a>
          </li>
        ))}
      </ul>
      <p className={styles.status} role="status" aria-live="polite">
        {status}
      </p>
    </div>
  );
}

function Icon({ d }: { d: string }) {
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" width="18" height="18" className={styles.icon}>
      <path d={d} fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}
