import { markRestores } from "@/components/donate/restore-marks";

// Runs in the browser before React hydrates the page: restores from the back/forward cache that
// come before React has mounted anything are counted too (components/donate/fresh-on-return.tsx).
markRestores();
