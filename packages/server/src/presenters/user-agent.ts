/**
 * The browser and operating system a User-Agent names, for a person to recognise their own
 * sessions ("Chrome on Linux"). Deliberately short: only the families people use for the portal,
 * tried in an order that respects how browsers borrow each other's tokens (Edge and Opera say
 * "Chrome", Chrome says "Safari", Android says "Linux"). Anything else is unknown rather than a
 * guess; a client may send any User-Agent, so this names, it never proves.
 */
export interface ClientName {
  browser: string | null;
  system: string | null;
}

const BROWSERS: [RegExp, string][] = [
  [/\bEdg(?:e|A|iOS)?\//, 'Edge'],
  [/\bOPR\/|\bOpera\b/, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\bVivaldi\//, 'Vivaldi'],
  [/\bFirefox\/|\bFxiOS\//, 'Firefox'],
  [/\bChromium\//, 'Chromium'],
  [/Chrome\/|\bCriOS\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
  [/\bMSIE |\bTrident\//, 'Internet Explorer'],
];

const SYSTEMS: [RegExp, string][] = [
  [/\bWindows\b/, 'Windows'],
  [/\bAndroid\b/, 'Android'],
  [/\b(?:iPhone|iPad|iPod)\b/, 'iOS'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bLinux\b|\bX11\b/, 'Linux'],
];

function firstMatch(patterns: [RegExp, string][], userAgent: string): string | null {
  return patterns.find(([pattern]) => pattern.test(userAgent))?.[1] ?? null;
}

export function nameClient(userAgent: string | null): ClientName {
  if (!userAgent) return { browser: null, system: null };
  return { browser: firstMatch(BROWSERS, userAgent), system: firstMatch(SYSTEMS, userAgent) };
}
