export {
  countUnreadNotifications,
  createNotification,
  listNotifications,
  markNotificationsRead,
  type NewNotification,
  type Notification,
  type NotificationSeverity,
} from "./notifications";
export { deliverOutbox, type EmailMessage, enqueueEmail, MAX_ATTEMPTS, retryDelayMs } from "./outbox";
// unseal: for tests that check what the deliverer would send; nothing else reads sealed secrets.
export { SECRET_PLACEHOLDER, unseal } from "./sealed";
export { type EmailContent, type EmailLayout, renderEmail } from "./templates";
export { type CostTexts, costTexts, formatMessage, publicBaseUrl } from "./texts";
