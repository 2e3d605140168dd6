import { loadWebhookEndpoint, recordLayout } from "../../records";

export default recordLayout(loadWebhookEndpoint);
