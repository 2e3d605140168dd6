/**
 * The request header the server (server/overload.ts) sets to `shed` on a page view it admits
 * past the page views' queue under overload: the donate page then leaves out its donor roll,
 * leaderboard and supporter count. The server drops the header from every incoming request, so
 * a client can't set it.
 */
export const LOAD_HEADER = "x-goodfund-load";
