import { SeededRandom } from "./random";

/**
 * The demo organization's year of activity, as a list of dated steps: pure and deterministic
 * (the same `now` gives the same steps, down to each name, amount and second), so a restart
 * after a crash can pick up where the seed stopped and the tests can check what the database
 * holds against what was planned. lib/demo/history.ts plays the steps through the
 * services real payments go through.
 *
 * The shape of the year: a seasonal curve (a year-end peak, a summer dip), a Giving Tuesday
 * spike (the Tuesday after US Thanksgiving: the busiest day), amounts whose mode is $25–$100
 * with a long tail and a few major gifts, donors who give again, monthly donors and members
 * whose plans renew each month (a few cancel), a peer-to-peer 5K with its fundraisers' pages,
 * gala tickets selling in the last weeks, a sponsor matching the winter appeal's recent gifts
 * up to a cap they have nearly reached, a few refunds and one dispute, lost.
 */

const DAY = 86_400_000;
const SEED = 20_241_203;

/** The campaigns a planned gift goes to, by slug: demoCampaigns' plus the fundraiser pages below. */
export type PlannedCampaign = "winter-meals" | "run-for-riverside" | "harvest-gala" | "friends" | (typeof FUNDRAISER_SLUGS)[number];

export type PlannedDonor = { email: string; firstName: string; lastName: string };

export type PlannedGift = {
  kind: "gift";
  /** Names the gift across restarts: its charge ID and its plan's invoices derive from it. */
  key: string;
  at: Date;
  campaign: PlannedCampaign;
  /** The gift in cents (tickets × price for the gala). */
  amount: number;
  donor: PlannedDonor;
  recurring: "MONTH" | "YEAR" | null;
  tickets: number | null;
  coverFees: boolean;
  anonymous: boolean;
  message: string | null;
};

export type PlanStep =
  | PlannedGift
  /** The `n`th paid renewal of the plan started by gift `gift`. */
  | { kind: "renewal"; key: string; at: Date; gift: string; n: number }
  | { kind: "refund"; at: Date; gift: string }
  | { kind: "dispute.created"; at: Date; gift: string }
  | { kind: "dispute.closed"; at: Date; gift: string; status: "lost" }
  | { kind: "plan.canceled"; at: Date; gift: string }
  /** The sponsor starts matching the winter appeal's gifts, up to `maxCents`. */
  | { kind: "match.started"; at: Date; maxCents: number };

/** The 5K's fundraiser pages besides Maya's (which demoCampaigns makes), by how many friends each one rallies. */
export const FUNDRAISER_PAGES = [
  {
    slug: "daniel-runs",
    title: "Daniel's first 5K",
    description:
      "I signed up for the Run for Riverside to get off the couch, and to give something back to the food bank that feeds so many of my neighbours. Help me cross the line!",
    goal: 50_000,
  },
  {
    slug: "okafor-family",
    title: "The Okafor family walks for Riverside",
    description:
      "Three generations of Okafors are walking the riverside loop this year, from Grandma Ada to baby Chidi in the stroller. Every dollar you give keeps the shelves full for families like ours.",
    goal: 150_000,
  },
  {
    slug: "rotary-team",
    title: "Team Riverside Rotary",
    description:
      "Our Rotary club is fielding a team of twelve runners and walkers. We have challenged the Lions Club to raise more than us: please don't let them win!",
    goal: 250_000,
  },
  {
    slug: "priya-runs",
    title: "Priya runs for full tables",
    description:
      "I volunteer in the Riverside kitchen every Saturday, and this year I'm running for it too. Sponsor my run and you'll help cook the next thousand hot meals.",
    goal: 75_000,
  },
  {
    slug: "coach-luis",
    title: "Coach Luis and the Riverside Juniors",
    description:
      "The Riverside Juniors running club is racing together for the food bank. The kids set their own goal and they're determined to beat it. Cheer them on with a gift!",
    goal: 100_000,
  },
] as const;
export const FUNDRAISER_SLUGS = ["maya-runs", ...FUNDRAISER_PAGES.map((p) => p.slug)] as const;
/** How likely a page is to get a gift for the 5K: the leaderboard's order, more or less. */
const PAGE_WEIGHTS: [(typeof FUNDRAISER_SLUGS)[number], number][] = [
  ["rotary-team", 30],
  ["okafor-family", 22],
  ["maya-runs", 18],
  ["coach-luis", 14],
  ["priya-runs", 10],
  ["daniel-runs", 6],
];

export const GALA_TICKET_CENTS = 7_500;

const FIRST_NAMES = [
  "Olivia",
  "Liam",
  "Emma",
  "Noah",
  "Ava",
  "Mateo",
  "Sophia",
  "Lucas",
  "Amara",
  "Ethan",
  "Mia",
  "James",
  "Isabella",
  "Kenji",
  "Charlotte",
  "Omar",
  "Harper",
  "Diego",
  "Evelyn",
  "Samuel",
  "Abigail",
  "Wei",
  "Emily",
  "Daniel",
  "Priya",
  "Henry",
  "Grace",
  "Jackson",
  "Chloe",
  "Aiden",
  "Zoe",
  "Sebastian",
  "Nora",
  "Elijah",
  "Layla",
  "Caleb",
  "Fatima",
  "Owen",
  "Hannah",
  "Gabriel",
  "Lily",
  "Isaac",
  "Aaliyah",
  "Leo",
  "Rosa",
  "Miguel",
  "Ruth",
  "Tomás",
] as const;
const LAST_NAMES = [
  "Smith",
  "Johnson",
  "Garcia",
  "Nguyen",
  "Brown",
  "Okafor",
  "Martinez",
  "Kim",
  "Davis",
  "Lopez",
  "Wilson",
  "Patel",
  "Anderson",
  "Thomas",
  "Hernandez",
  "Moore",
  "Jackson",
  "Lee",
  "Walker",
  "Young",
  "Allen",
  "Chen",
  "King",
  "Wright",
  "Scott",
  "Torres",
  "Hill",
  "Green",
  "Adams",
  "Baker",
  "Nelson",
  "Rivera",
  "Campbell",
  "Mitchell",
  "Roberts",
  "Carter",
  "Phillips",
  "Evans",
  "Turner",
  "Diaz",
  "Parker",
  "Cruz",
  "Edwards",
  "Collins",
  "Reyes",
  "Stewart",
  "Morris",
  "Murphy",
] as const;
const MESSAGES = [
  "Happy to help my neighbours.",
  "Thank you for all you do!",
  "In memory of my mother, who never let anyone leave her kitchen hungry.",
  "Keep up the great work, Riverside!",
  "From all of us at the Elm Street book club.",
  "For the volunteers: you are amazing.",
  "A little something for the soup pot.",
  "Go Riverside!",
] as const;

/** Gift sizes in dollars and how common each is: most between $25 and $100, a long tail. */
const AMOUNTS: [number, number][] = [
  [10, 5],
  [15, 3],
  [20, 7],
  [25, 20],
  [30, 3],
  [35, 3],
  [40, 3],
  [50, 19],
  [60, 2],
  [75, 6],
  [100, 14],
  [125, 1],
  [150, 3],
  [200, 4],
  [250, 3],
  [300, 1],
  [500, 2],
  [750, 0.5],
  [1_000, 1],
];
const MONTHLY_AMOUNTS: [number, number][] = [
  [10, 5],
  [15, 3],
  [20, 4],
  [25, 6],
  [35, 1],
  [50, 4],
  [100, 2],
];
const MEMBERSHIP_AMOUNTS: [number, number][] = [
  [10, 4],
  [25, 5],
  [50, 2],
];

/** The seasonal curve: the weight of an ordinary day of each month (January first). */
const MONTH_WEIGHT = [0.8, 0.55, 0.65, 0.7, 0.7, 0.55, 0.45, 0.5, 0.7, 0.8, 1.15, 1.9];
/** One-time gifts over the year, before the Giving Tuesday spike. */
const ONE_TIME_GIFTS = 2_100;
const MONTHLY_PLANS = 45;
const MEMBERSHIP_PLANS = 22;
const GALA_ORDERS = 60;

const utcMidnight = (t: number) => Math.floor(t / DAY) * DAY;

/** The Tuesday after US Thanksgiving (the fourth Thursday of November) of `year`, at 00:00 UTC. */
export function givingTuesday(year: number): Date {
  const nov1 = Date.UTC(year, 10, 1);
  const firstThursday = 1 + ((4 - new Date(nov1).getUTCDay() + 7) % 7);
  return new Date(Date.UTC(year, 10, firstThursday + 21 + 5));
}

/** The last Giving Tuesday strictly before `now`'s UTC day: the one the demo's year shows. */
export function lastGivingTuesday(now: Date): Date {
  const today = utcMidnight(now.getTime());
  const thisYear = givingTuesday(now.getUTCFullYear());
  return thisYear.getTime() < today ? thisYear : givingTuesday(now.getUTCFullYear() - 1);
}

/** The first UTC day of the demo's history: a year before `now`, or earlier to take in the last Giving Tuesday. */
export function historyStart(now: Date): Date {
  const yearAgo = utcMidnight(now.getTime()) - 364 * DAY;
  return new Date(Math.min(yearAgo, lastGivingTuesday(now).getTime() - 14 * DAY));
}

/** The Saturday of the 5K: about ten weeks before `now`. */
export function raceDay(now: Date): Date {
  const t = utcMidnight(now.getTime()) - 70 * DAY;
  return new Date(t - ((new Date(t).getUTCDay() + 1) % 7) * DAY);
}

/** When the sponsor's match of the winter appeal began: three weeks before `now`. */
export const matchStart = (now: Date) => new Date(utcMidnight(now.getTime()) - 21 * DAY + 13 * 3_600_000);

/**
 * The plan for a history ending at `now`. `scale` (1 by default) shrinks the volume of gifts,
 * plans and ticket orders (the tests' short runs); the refunds and the dispute stay.
 */
export function planDemoHistory(now: Date, scale = 1): PlanStep[] {
  const rng = new SeededRandom(SEED);
  const nowMs = now.getTime();
  const today = utcMidnight(nowMs);
  const start = historyStart(now).getTime();
  const gt = lastGivingTuesday(now).getTime();
  const race = raceDay(now).getTime();
  const steps: PlanStep[] = [];

  // Donors: a growing list; a gift comes from a new donor or, a third of the time, one who gave before.
  const donors: PlannedDonor[] = [];
  const emails = new Set<string>();
  const newDonor = (): PlannedDonor => {
    const firstName = rng.pick(FIRST_NAMES);
    const lastName = rng.pick(LAST_NAMES);
    const plain = (s: string) =>
      s
        .normalize("NFD")
        .replace(/[^A-Za-z]/g, "")
        .toLowerCase();
    const local = rng.weighted([
      [`${plain(firstName)}.${plain(lastName)}`, 5],
      [`${plain(firstName)}${plain(lastName)[0]}`, 2],
      [`${plain(firstName)[0]}${plain(lastName)}`, 2],
    ] as const);
    const domain = rng.chance(0.6) ? "example.org" : "example.com";
    let email = `${local}@${domain}`;
    for (let n = 2; emails.has(email); n++) email = `${local}${n}@${domain}`;
    emails.add(email);
    const donor = { email, firstName, lastName };
    donors.push(donor);
    return donor;
  };
  const someDonor = (repeatChance: number) => (donors.length > 20 && rng.chance(repeatChance) ? rng.pick(donors) : newDonor());

  // A time on the UTC day `day`: mostly North American daytime and evening; never after `now`.
  const timeOn = (day: number): Date => {
    const hour = rng.weighted([
      [0, 3],
      [1, 3],
      [2, 2],
      [3, 1],
      [4, 0.5],
      [5, 0.3],
      [6, 0.3],
      [7, 0.3],
      [8, 0.5],
      [9, 0.8],
      [10, 1],
      [11, 1.2],
      [12, 1.5],
      [13, 2],
      [14, 2.5],
      [15, 3],
      [16, 3],
      [17, 3],
      [18, 3],
      [19, 3],
      [20, 3],
      [21, 3],
      [22, 3],
      [23, 3],
    ] as const);
    const t = day + hour * 3_600_000 + rng.int(0, 3_599) * 1000;
    return new Date(day === today ? today + Math.floor(((t - day) / DAY) * (nowMs - today)) : t);
  };

  // Each day's weight on the seasonal curve; today counts for the part of it already past.
  const days: { day: number; weight: number }[] = [];
  for (let day = start; day <= today; day += DAY) {
    const d = new Date(day);
    let weight = MONTH_WEIGHT[d.getUTCMonth()] * (0.75 + 0.5 * rng.next());
    if (d.getUTCMonth() === 11 && d.getUTCDate() >= 15) weight *= 1.5;
    if (d.getUTCMonth() === 11 && d.getUTCDate() === 31) weight *= 2.5;
    if (day > gt - 5 * DAY && day < gt) weight *= 1.4; // Black Friday to Cyber Monday
    if (day > race - 42 * DAY && day < race + 3 * DAY) weight *= 1.8; // the 5K's fundraisers' friends
    if (day === today) weight *= (nowMs - today) / DAY;
    days.push({ day, weight });
  }
  const totalWeight = days.reduce((s, d) => s + d.weight, 0);
  const counts = days.map((d) => (d.day === gt ? 0 : Math.round((ONE_TIME_GIFTS * scale * d.weight) / totalWeight)));
  // Giving Tuesday: well above the busiest other day.
  counts[days.findIndex((d) => d.day === gt)] = Math.round(Math.max(...counts) * 1.8) + 20;

  const dollars = (table: [number, number][]) => rng.weighted(table) * 100;
  let giftNo = 0;
  const gift = (g: Omit<PlannedGift, "kind" | "key" | "coverFees" | "anonymous" | "message"> & Partial<PlannedGift>): PlannedGift => {
    const planned: PlannedGift = {
      kind: "gift",
      key: `g${++giftNo}`,
      coverFees: rng.chance(0.3),
      anonymous: rng.chance(0.05),
      message: rng.chance(0.08) ? rng.pick(MESSAGES) : null,
      ...g,
    };
    steps.push(planned);
    return planned;
  };

  // One-time gifts: the winter appeal, except around the 5K, when many go to its pages.
  days.forEach(({ day }, i) => {
    for (let n = 0; n < counts[i]; n++) {
      const at = timeOn(day);
      const forRace = at.getTime() > race - 42 * DAY && at.getTime() < race + 3 * DAY && rng.chance(0.6);
      const campaign: PlannedCampaign = forRace ? (rng.chance(0.2) ? "run-for-riverside" : rng.weighted(PAGE_WEIGHTS)) : "winter-meals";
      let amount = dollars(AMOUNTS);
      if (rng.chance(0.04)) amount += rng.int(1, 9) * 100; // a custom amount: $27, $55, ...
      gift({ at, campaign, amount, donor: someDonor(0.35), recurring: null, tickets: null });
    }
  });

  // A few major gifts, at the times they tend to come: year-end, and a spring family foundation grant.
  const yearEnd = Date.UTC(new Date(gt).getUTCFullYear(), 11, 31);
  const majors: [number, number][] = [
    [yearEnd + 15 * 3_600_000, 10_000_00],
    [yearEnd - 12 * DAY + 17 * 3_600_000, 5_000_00],
    [gt + 19 * 3_600_000, 2_500_00],
    [start + 150 * DAY + 16 * 3_600_000, 25_000_00],
    [start + 250 * DAY + 20 * 3_600_000, 2_000_00],
  ];
  for (const [t, amount] of majors) {
    if (t >= nowMs) continue;
    gift({
      at: new Date(t),
      campaign: "winter-meals",
      amount,
      donor: newDonor(),
      recurring: null,
      tickets: null,
      coverFees: false,
      anonymous: false,
    });
  }

  // Monthly donors to the winter appeal and Friends of Riverside members: each plan renews on
  // the same day every month (or year) until now; about one in eight is canceled along the way,
  // and always the second oldest monthly gift (the oldest shows a year of renewals), so the demo
  // shows a canceled plan whatever the date.
  const planStarts = (n: number) => {
    const out: number[] = [];
    for (let k = 0; k < n; k++) {
      const { day } = rng.weighted(days.map((d) => [d, d.weight] as const));
      out.push(day);
    }
    return out;
  };
  const startPlan = (campaign: PlannedCampaign, day: number, interval: "MONTH" | "YEAR", amount: number, canceled = false) => {
    const first = gift({ at: timeOn(day), campaign, amount, donor: someDonor(0.15), recurring: interval, tickets: null });
    const cancelAfter = rng.chance(0.12) || canceled ? rng.int(1, 5) : Infinity;
    const startDate = first.at;
    let last = startDate.getTime();
    for (let n = 1; ; n++) {
      const next = new Date(startDate);
      if (interval === "MONTH") next.setUTCMonth(startDate.getUTCMonth() + n);
      else next.setUTCFullYear(startDate.getUTCFullYear() + n);
      // setUTCMonth rolls Jan 31 into March: bill on the month's last day instead, as processors do.
      if (interval === "MONTH" && next.getUTCDate() !== startDate.getUTCDate()) next.setUTCDate(0);
      if (n > cancelAfter) {
        const at = last + rng.int(3, 20) * DAY;
        if (at < nowMs) steps.push({ kind: "plan.canceled", at: new Date(at), gift: first.key });
        break;
      }
      if (next.getTime() >= nowMs) break;
      steps.push({ kind: "renewal", key: `${first.key}r${n}`, at: next, gift: first.key, n });
      last = next.getTime();
    }
  };
  const monthly = planStarts(Math.round(MONTHLY_PLANS * scale));
  const secondOldest = monthly.indexOf([...monthly].sort((a, b) => a - b)[1]);
  for (const [k, day] of monthly.entries()) startPlan("winter-meals", day, "MONTH", dollars(MONTHLY_AMOUNTS), k === secondOldest);
  for (const day of planStarts(Math.round(MEMBERSHIP_PLANS * scale))) {
    const yearly = rng.chance(0.2);
    startPlan("friends", day, yearly ? "YEAR" : "MONTH", yearly ? rng.pick([5_000, 10_000, 25_000]) : dollars(MEMBERSHIP_AMOUNTS));
  }

  // The harvest gala's tickets: orders of one to four seats, picking up as the evening nears.
  for (let n = 0; n < Math.round(GALA_ORDERS * scale); n++) {
    const daysAgo = Math.floor(45 * Math.sqrt(rng.next()));
    const day = today - (45 - daysAgo) * DAY;
    const tickets = rng.weighted([
      [1, 3],
      [2, 6],
      [3, 1],
      [4, 2],
    ] as const);
    gift({
      at: timeOn(day),
      campaign: "harvest-gala",
      amount: tickets * GALA_TICKET_CENTS,
      donor: someDonor(0.3),
      recurring: null,
      tickets,
    });
  }

  // The sponsor's match of the winter appeal since matchStart: a cap the gifts since then have
  // nearly reached (about 93% of it, rounded up to $500).
  const matchFrom = matchStart(now).getTime();
  const gifts = steps.filter((s): s is PlannedGift => s.kind === "gift");
  const byKey = new Map(gifts.map((g) => [g.key, g]));
  const matchedGifts = steps.filter(
    (s) =>
      s.at.getTime() > matchFrom &&
      ((s.kind === "gift" && s.campaign === "winter-meals") || (s.kind === "renewal" && byKey.get(s.gift)!.campaign === "winter-meals")),
  );
  const matchable = matchedGifts.reduce(
    (sum, s) => sum + (s.kind === "gift" ? s.amount : byKey.get((s as { gift: string }).gift)!.amount),
    0,
  );
  steps.push({ kind: "match.started", at: new Date(matchFrom), maxCents: Math.ceil(matchable / 0.93 / 50_000) * 50_000 });

  // Refunds: a handful of one-time gifts given back within days (a donor's typo, a duplicate gift).
  const refundable = gifts.filter(
    (g) => !g.recurring && !g.tickets && g.amount < 100_000 && g.at.getTime() < matchFrom - 15 * DAY && g.at.getTime() > start + 10 * DAY,
  );
  const refunded = new Set<string>();
  for (let n = 0; n < 7 && refundable.length > 0; n++) {
    const g = rng.pick(refundable);
    if (refunded.has(g.key)) continue;
    refunded.add(g.key);
    steps.push({ kind: "refund", at: new Date(g.at.getTime() + rng.int(1, 9) * DAY + rng.int(0, 36_000) * 1000), gift: g.key });
  }
  // One dispute: a gift from about four months ago, disputed as fraudulent and lost.
  const fourMonthsAgo = (g: PlannedGift) =>
    !refunded.has(g.key) && g.at.getTime() > nowMs - 130 * DAY && g.at.getTime() < nowMs - 100 * DAY;
  const disputed = refundable.find((g) => fourMonthsAgo(g) && g.amount >= 10_000) ?? refundable.find(fourMonthsAgo);
  if (disputed) {
    steps.push({ kind: "dispute.created", at: new Date(disputed.at.getTime() + 24 * DAY), gift: disputed.key });
    steps.push({ kind: "dispute.closed", at: new Date(disputed.at.getTime() + 71 * DAY), gift: disputed.key, status: "lost" });
  }

  // In time order (a stable sort: what happens at the same instant keeps its planned order).
  return steps
    .map((s, i) => [s, i] as const)
    .sort(([a, i], [b, j]) => a.at.getTime() - b.at.getTime() || i - j)
    .map(([s]) => s);
}
