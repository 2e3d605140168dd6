/** The sample organization and campaign the templates' previews (their default props) are about. */
export const previewCampaign = { orgName: "Riverside Water Trust", campaignTitle: "Clean Water for Riverside" };

/** The sample donor the previews of donor emails are written to. */
export const previewDonor = { donorFirstName: "Maya", donorName: "Maya Okafor", donorEmail: "maya.okafor@example.org" };
