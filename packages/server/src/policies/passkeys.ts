/**
 * The WebAuthn relying party of a request (decision 067): the host the page was loaded from, so
 * that each white-label's own domain has its own passkeys without a setting. Behind a reverse
 * proxy `TRUST_PROXY=1` makes the forwarded scheme and host count, as the browser saw them.
 */
export interface RelyingParty {
  /** The host name without port (a passkey is bound to it and works on its port-less origin). */
  id: string;
  /** The exact origin the browser signs: scheme, host and port. */
  origin: string;
  /** Shown by the browser and the authenticator: the white-label's title. */
  name: string;
}

export const relyingPartyOf = (
  request: { hostname: string; host: string; protocol: string },
  name: string,
): RelyingParty => ({
  id: request.hostname,
  // As the browser writes it: a default port (a proxy's Host: example.com:443) is left out.
  origin: new URL(`${request.protocol}://${request.host}`).origin,
  name,
});
