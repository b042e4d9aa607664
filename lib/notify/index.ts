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
export { deliverWebhooks, WEBHOOK_MAX_ATTEMPTS, webhookRetryDelayMs } from "./webhook-deliver";
export {
  emitWebhookEvents,
  instanceTransitionFanOut,
  TEST_EVENT_TYPE,
  WEBHOOK_EVENT_TYPES,
  type WebhookEvent,
  type WebhookEventType,
} from "./webhook-events";
export { webhookSignature } from "./webhook-sign";
export {
  type CreateWebhookInput,
  createWebhookEndpoint,
  createWebhookSchema,
  deleteWebhookEndpoint,
  getWebhookEndpoint,
  listWebhookEndpoints,
  MAX_WEBHOOK_ENDPOINTS,
  resendWebhookDelivery,
  sendTestWebhook,
  setWebhookEnabled,
  WEBHOOK_FIELD_MESSAGES,
  type WebhookAttemptView,
  type WebhookDeliveryView,
  type WebhookEndpointState,
  type WebhookEndpointView,
  webhookDeliveryJson,
  webhookDeliveryJsonSchema,
  webhookEndpointEtagView,
  webhookEndpointJson,
  webhookEndpointJsonSchema,
} from "./webhooks";
