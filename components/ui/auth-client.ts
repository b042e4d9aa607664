/**
 * next-auth's browser client, loaded when a sign-in or sign-out button is pressed rather than with every page
 * (it is about 12 kB gzip that a page does not otherwise need).
 */
export async function signOutTo(callbackUrl: string): Promise<void> {
  const { signOut } = await import("next-auth/react");
  await signOut({ callbackUrl });
}

export async function signInWith(provider: string, callbackUrl: string): Promise<void> {
  const { signIn } = await import("next-auth/react");
  await signIn(provider, { callbackUrl });
}
