export {
  countOutbox,
  deliverOutbox,
  type EmailMessage,
  enqueueEmail,
  listOutbox,
  retryDelayMs,
} from "./outbox";
