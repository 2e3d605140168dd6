import fc from "fast-check";

/** Strings that have broken parsers, sanitizers, databases and JSON encoders somewhere. */
export const nasty = fc.constantFrom(
  "",
  " ",
  "\u0000",
  "a\u0000b",
  "<script>alert(1)</script>",
  "<b>bold</b>",
  "&amp;&lt;&gt;",
  "' OR 1=1 --",
  "\\",
  "%00",
  "\ud800",
  "\udfff\ud800",
  "😀".repeat(50),
  "x".repeat(1001),
  "x".repeat(5000),
  "<i>" + "y".repeat(5000) + "</i>",
  "__proto__",
  "constructor",
);

/** Anything of the wrong type for most fields: a string from `strings`, a number, a boolean, null, an array or an object. */
export const wrongType = (strings: fc.Arbitrary<string>): fc.Arbitrary<unknown> =>
  fc.oneof(
    strings,
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 3 }),
    fc.dictionary(fc.string({ maxLength: 5 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 }),
  );
