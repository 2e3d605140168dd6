import type { CSSProperties } from "react";

/** A grey shimmering block standing in for content that is loading. */
export function Skeleton({
  width = "100%",
  height = 16,
  style,
}: {
  width?: number | string;
  height?: number | string;
  style?: CSSProperties;
}) {
  return <div className="skeleton" style={{ width, height, ...style }} />;
}

/** Page-shaped placeholder for loading.tsx: a header, a row of stats and a table. */
export function PageSkeleton({ label = "Loading", stats = true, rows = 5 }: { label?: string; stats?: boolean; rows?: number }) {
  return (
    <div role="status" aria-live="polite" aria-busy="true">
      <span className="sr-only">{label}…</span>
      <div className="page-header">
        <div style={{ display: "grid", gap: 8, width: "min(360px, 80%)" }}>
          <Skeleton width="40%" height={12} />
          <Skeleton width="80%" height={26} />
        </div>
      </div>
      {stats ? (
        <div className="stats">
          {[0, 1, 2].map((i) => (
            <div className="stat" key={i}>
              <Skeleton width="50%" height={12} />
              <Skeleton width="70%" height={24} style={{ marginTop: 8 }} />
            </div>
          ))}
        </div>
      ) : null}
      <div className="card" style={{ display: "grid", gap: 14 }}>
        {Array.from({ length: rows }, (_, i) => (
          <Skeleton key={i} height={18} width={`${90 - (i % 3) * 15}%`} />
        ))}
      </div>
    </div>
  );
}
