import styles from "./test-mode-banner.module.css";

/**
 * Shown on every page in sandbox payments mode (root layout): nothing real is charged, so nobody
 * should mistake the install for a live one. A labelled landmark, so screen readers can find it.
 */
export function TestModeBanner() {
  return (
    <aside className={styles.banner} aria-label="Test mode">
      <p>
        <strong>Test mode</strong> — no real payments are taken.
      </p>
    </aside>
  );
}
