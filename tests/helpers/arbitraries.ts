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
