import { Fragment } from 'react';
import styles from './breakable-text.module.css';

/** Between a run of / . - _ ? & = and the character after it: where a URL or an ID may wrap. */
const BREAK_AFTER = /(?<=[/.\-_?&=])(?=[^/.\-_?&=])/;

/** The pieces of `text` that a line may break between: "https://", "example.", "com/", "callback". */
export function breakPoints(text: string): string[] {
  return text.split(BREAK_AFTER);
}

/**
 * AX-12: a long ID or URL that wraps at sensible points on a narrow screen: after / . - _ ? & =
 * (after the whole run, so "//" stays together), never inside a word ("callb|ack"). `<wbr>`
 * adds no character, so the text read aloud, found or copied is the value itself.
 */
export function BreakableText({ text }: { text: string }) {
  return (
    <span className={styles.text}>
      {breakPoints(text).map((piece, i) => (
        <Fragment key={i}>
          {i > 0 ? <wbr /> : null}
          {piece}
        </Fragment>
      ))}
    </span>
  );
}
