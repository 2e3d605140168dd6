// The reports' shared reference text: how the window of time they take is read.
export const REPORT_WINDOW =
  "The window is `from` (inclusive) to `to` (exclusive) on the time the money came in (`succeededAt`), both optional " +
  "(absent: unbounded on that side); bounds keep their microseconds. A donation counts when it is SUCCEEDED now: one " +
  "refunded or disputed later leaves `raisedCents`. Over all time the numbers equal the campaigns' own aggregates " +
  "(`raisedAmountCents`, `donationCount`), each donation once. Invalid dates, or `to` before `from`, answer 400.";
