/**
 * TR-15: a short name for what made a request, from its User-Agent, for the "last used" line of
 * a token or an application: "Chrome on macOS" for a browser, "curl/8.5" for a tool. Only the
 * common cases are named; anything else is its first product token, cut short. The full header
 * is kept for a tooltip: this is a hint for the owner, never a fact to trust (a client writes
 * whatever User-Agent it likes).
 */

/** Browsers, the specific before the generic: Edge and Opera also say Chrome, Chrome says Safari. */
const BROWSERS: ReadonlyArray<readonly [RegExp, string]> = [
  [/\bEdg(?:e|A|iOS)?\//, 'Edge'],
  [/\b(?:OPR|Opera)\//, 'Opera'],
  [/\b(?:Firefox|FxiOS)\//, 'Firefox'],
  [/\b(?:HeadlessChrome|Chrome|Chromium|CriOS)\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
];

/** Systems, likewise: iOS says "like Mac OS X", Android says Linux. */
const SYSTEMS: ReadonlyArray<readonly [RegExp, string]> = [
  [/\b(?:iPhone|iPad|iPod)\b/, 'iOS'],
  [/\bAndroid\b/, 'Android'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bWindows\b/, 'Windows'],
  [/\b(?:Macintosh|Mac OS X)\b/, 'macOS'],
  [/\bLinux\b/, 'Linux'],
];

/** `name/1.2.3` at the start: the product, and the major and minor of its version. */
const PRODUCT = /^([A-Za-z][\w.+-]*)(?:\/v?(\d+)(?:\.(\d+))?)?/;

const MAX_LENGTH = 40;

function firstMatch(userAgent: string, patterns: ReadonlyArray<readonly [RegExp, string]>): string | undefined {
  return patterns.find(([pattern]) => pattern.test(userAgent))?.[1];
}

function cut(text: string): string {
  return text.length > MAX_LENGTH ? `${text.slice(0, MAX_LENGTH - 1)}…` : text;
}

/** The short description, or null when the header is blank. */
export function describeUserAgent(userAgent: string): string | null {
  const header = userAgent.trim();
  if (header === '') return null;
  if (header.startsWith('Mozilla/')) {
    const browser = firstMatch(header, BROWSERS);
    const system = firstMatch(header, SYSTEMS);
    if (browser && system) return `${browser} on ${system}`;
    if (browser ?? system) return (browser ?? system)!;
  }
  const product = PRODUCT.exec(header);
  if (!product) return cut(header);
  const [, name, major, minor] = product;
  const version = major === undefined ? '' : minor === undefined ? `/${major}` : `/${major}.${minor}`;
  return cut(`${name}${version}`);
}
