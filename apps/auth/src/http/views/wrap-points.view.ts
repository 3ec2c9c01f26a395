import { escapeHtml, SafeHtml } from '../html.ts';

/** Where a URL, host, email or ID may wrap: after each run of these (AX-12). */
const AFTER = /(?<=[/.\-_?&=@])(?![/.\-_?&=@])/;

/**
 * Shorter than this, a value fits on one line of the narrowest card (320 px wide, 0.875rem
 * bold), so it wraps, if at all, at the spaces around it: it is left as written.
 */
const FITS_ON_A_LINE = 30;

/**
 * AX-12: a long URL, host, email or ID wraps where it reads naturally, after `/ . - _ ? & = @`
 * (`weather.<wbr>example/<wbr>callback`), never mid-word (`callb|ack`). Each part is escaped,
 * then joined with `<wbr>`, which adds a break opportunity and no text: copied or read aloud,
 * the value is unchanged. The stylesheet's `overflow-wrap: anywhere` stays only as the last
 * resort for a part longer than the line.
 */
export function withWrapPoints(text: string): SafeHtml {
  if (text.length < FITS_ON_A_LINE) return new SafeHtml(escapeHtml(text));
  return new SafeHtml(text.split(AFTER).map(escapeHtml).join('<wbr>'));
}
