import Link from "next/link";
import type { CSSProperties, ReactNode } from "react";

/** The Goodfund wordmark, a link to `href`. */
export function BrandLink({ href, style }: { href: string; style?: CSSProperties }) {
  return (
    <Link className="brand" href={href} style={style}>
      <span className="brand-mark" aria-hidden="true">
        G
      </span>
      Goodfund
    </Link>
  );
}

/**
 * The top of a page outside the dashboard's frame: the skip link to `#main`, then a bar with the
 * wordmark (a link to `home`) and `children` at its other end.
 */
export function SimpleTop({ home, children }: { home: string; children: ReactNode }) {
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="simple-top">
        <BrandLink href={home} />
        {children}
      </header>
    </>
  );
}
