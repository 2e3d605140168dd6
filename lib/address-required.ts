/**
 * Whether the donate form must collect the donor's postal address for this campaign: the
 * campaign asks for it (`collectAddress`). The one place that decides it, for the form and for
 * the API's check of a gift alike.
 */
export function addressRequired(campaign: { collectAddress: boolean }): boolean {
  return campaign.collectAddress;
}
