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
export { type EmailContent, type EmailLayout, renderEmail } from "./templates";
export { type CostTexts, costTexts, formatMessage, publicBaseUrl } from "./texts";
