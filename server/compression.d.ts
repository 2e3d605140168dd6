// The part of the compression package's API the server uses (it ships no types, and
// @types/compression describes it through Express, which this project does not use).
declare module "compression" {
  import type { IncomingMessage, ServerResponse } from "node:http";
  import type { BrotliOptions, ZlibOptions } from "node:zlib";

  type Options = ZlibOptions & {
    brotli?: BrotliOptions;
    threshold?: number | string;
    filter?: (req: IncomingMessage, res: ServerResponse) => boolean;
  };
  function compression(options?: Options): (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) => void;
  export = compression;
}
