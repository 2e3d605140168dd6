import { loadDonation, recordLayout } from "../../records";

export default recordLayout(loadDonation);
