import { loadCampaign, recordLayout } from "../../records";

export default recordLayout(loadCampaign);
