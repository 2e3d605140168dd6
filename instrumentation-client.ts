import { config } from "zod";

// Zod compiles object parsers with `new Function` when the page allows eval; probing for that
// makes the browser report a Content-Security-Policy violation on every form page (our policy
// allows no eval). Parse without the compiler instead.
config({ jitless: true });
