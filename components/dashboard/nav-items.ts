export type NavItem = { href: string; label: string };
export type NavGroup = { label: string; items: NavItem[] };

/**
 * The organization's pages. Donations, Donors, Recurring, Reports, Webhooks and Emails are
 * built separately; their links are here already so the navigation does not change when they land.
 */
export function orgNavGroups(slug: string): NavGroup[] {
  const base = `/dashboard/${slug}`;
  return [
    {
      label: "Fundraising",
      items: [
        { href: base, label: "Overview" },
        { href: `${base}/campaigns`, label: "Campaigns" },
        { href: `${base}/donations`, label: "Donations" },
        { href: `${base}/donors`, label: "Donors" },
        { href: `${base}/statements`, label: "Statements" },
        { href: `${base}/recurring`, label: "Recurring" },
        { href: `${base}/reports`, label: "Reports" },
        { href: `${base}/imports`, label: "Import" },
      ],
    },
    {
      label: "Organization",
      items: [
        { href: `${base}/members`, label: "Members" },
        { href: `${base}/settings/payouts`, label: "Payouts" },
        { href: `${base}/settings`, label: "Settings" },
        { href: `${base}/audit-log`, label: "Audit log" },
      ],
    },
    {
      label: "Developers",
      items: [
        { href: `${base}/api-access`, label: "API access" },
        { href: `${base}/webhooks`, label: "Webhooks" },
        { href: `${base}/emails`, label: "Emails" },
      ],
    },
  ];
}
