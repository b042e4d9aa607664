export { requestPasswordReset, resetPassword, sendVerificationEmail, verifyEmail } from "./account-email";
export { requestOrigin, sameOriginPath } from "./callback-url";
export { clientAddress, trustedProxies } from "./client-address";
export { verifyCredentials } from "./credentials";
export { emailTokenIsLive } from "./email-tokens";
export { signUpWithInvitation } from "./invited-signup";
export { hashPassword, verifyPassword } from "./password";
export {
  countRateLimitHit,
  hitRateLimit,
  type RateLimitState,
  SIGN_IN_LIMITS,
  signInKeys,
  signUpLimit,
} from "./rate-limit";
export {
  emailSchema,
  invitedSignUpSchema,
  PASSWORD_MAX,
  PASSWORD_MIN,
  passwordSchema,
  signInSchema,
  signUpSchema,
} from "./schemas";
export { resolveOidcUser } from "./sso";
export { findUserByEmail, getUserById, signUp } from "./users";
