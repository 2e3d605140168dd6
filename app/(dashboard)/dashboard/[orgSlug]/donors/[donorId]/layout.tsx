import { loadDonor, recordLayout } from "../../records";

export default recordLayout(loadDonor);
