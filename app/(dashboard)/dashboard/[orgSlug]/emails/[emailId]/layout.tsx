import { loadEmail, recordLayout } from "../../records";

export default recordLayout(loadEmail);
