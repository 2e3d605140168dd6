/**
 * The account the one-click demo sign-in signs in, on a local sandbox install only (modes.ts,
 * options.ts). The demo seed (lib/demo/seed.ts) creates it; a fixed ID lets the sign-in find it
 * without knowing anything of the seed.
 */
export const DEMO_OWNER = { id: "usr_demo", email: "demo@goodfund.local", name: "Demo Owner" };
