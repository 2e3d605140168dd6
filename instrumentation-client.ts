import { config } from "zod/mini";

// Zod compiles object parsers with `new Function` when the page allows eval; probing for that
// makes the browser report a Content-Security-Policy violation on every form page (our policy
// allows no eval). Parse without the compiler instead. (Zod's one configuration, shared by zod
// and zod/mini; imported from zod/mini so that every page does not load the whole of zod.)
config({ jitless: true });
