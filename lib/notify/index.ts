export { deliverOutbox, type EmailMessage, enqueueEmail, MAX_ATTEMPTS, retryDelayMs } from "./outbox";
export { type EmailContent, type EmailLayout, renderEmail } from "./templates";
