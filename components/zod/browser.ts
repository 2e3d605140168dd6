// "zod" as the browser loads it: next.config.ts points the browser's imports of "zod" here.
//
// Zod compiles object parsers with `new Function` when the page allows eval; probing for that
// makes the browser report a Content-Security-Policy violation (our policy allows no eval). This
// module turns the compiler off before it hands zod on, and every module that imports "zod" runs
// after the modules it imports, so no schema in the browser is built before this. Pages that use
// no zod in the browser (the donate pages) load none of it. The server keeps the compiler.
import { config } from "zod/v4/core";

config({ jitless: true });

export * from "zod/v4";
export { default } from "zod/v4";
