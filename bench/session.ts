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
  // The login answer sets the session and a new anti-forgery secret: its cookies replace the first.
  const cookies = new Map<string, string>();
  for (const cookie of [...first.headers.getSetCookie(), ...login.headers.getSetCookie()]) {
    const [pair] = cookie.split(';');
    cookies.set(pair.slice(0, pair.indexOf('=')), pair);
  }
  return [...cookies.values()].join('; ');
}

/** The cookies of `sessionCookie`'s header as a browser context takes them. */
export function browserCookies(cookie: string, url: string) {
  return cookie.split('; ').map((pair) => {
    const [name, ...value] = pair.split('=');
    return { name, value: value.join('='), url };
  });
}
