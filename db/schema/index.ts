export * from "./auth";
export * from "./organizations";
export * from "./campaigns";
export * from "./donations";
export * from "./reports";
export * from "./webhooks";
export * from "./clients";
export * from "./donor-side";
