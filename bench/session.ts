// Signing in as the web app does: CSRF cookie and token from a first answer, then POST /v2/login.
// Returns the cookie header of the session (CSRF cookie included) for later requests.
export async function sessionCookie(base: string, username: string, password: string): Promise<string> {
  const first = await fetch(`${base}/api/v2/whitelabels/current`);
  const csrfCookie = first.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const login = await fetch(`${base}/api/v2/login`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-csrf-token': first.headers.get('x-csrf-token')!,
      cookie: csrfCookie,
    },
    body: JSON.stringify({ username, password }),
  });
  if (login.status !== 200) throw new Error(`login as ${username} failed: ${login.status}`);
  return [csrfCookie, ...login.headers.getSetCookie().map((c) => c.split(';')[0])].join('; ');
}
