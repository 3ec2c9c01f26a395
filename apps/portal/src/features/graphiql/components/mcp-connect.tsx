import { useId } from 'react';
import { RevealedSecret } from '../../../components/revealed-secret.tsx';
import styles from './mcp-connect.module.css';

/**
 * RS-22: the URL to paste into an MCP client (an AI assistant, an IDE) so that it uses the API
 * as the person who signs in through it: the API's `/mcp` endpoint, which the BFF names since
 * the portal is given no API_URL. docs/mcp.md says the rest (registering a public client).
 */
export function McpConnect({ url }: { url: string }) {
  const titleId = useId();
  return (
    <section className={styles.panel} aria-labelledby={titleId}>
      <div className={styles.text}>
        <h2 id={titleId} className={styles.title}>
          Connect an MCP client
        </h2>
        <p className="muted">
          Add this URL to an MCP client as a remote server: it signs you in here, asks for your consent, then can read
          your profile and run the queries you run here.
        </p>
      </div>
      <RevealedSecret label="MCP server URL" value={url} copyLabel="Copy MCP server URL" />
    </section>
  );
}
