// Serves the single-page app: index.html (for / and /callback), app.js, and its settings as
// /config.js. A static site with nothing secret in it; the app talks to Latchkey from the browser.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const { ISSUER, API_URL, CLIENT_ID, PORT = '5174' } = process.env;
if (!ISSUER || !API_URL || !CLIENT_ID) {
  console.error('Set ISSUER, API_URL and CLIENT_ID (and PORT, default 5174).');
  process.exit(1);
}

const file = (name: string) => readFileSync(new URL(name, import.meta.url));
const config = { issuer: ISSUER, apiUrl: API_URL, clientId: CLIENT_ID };
const html = { type: 'text/html; charset=utf-8', body: file('index.html') };
const routes: Record<string, { type: string; body: string | Buffer }> = {
  '/': html,
  '/callback': html,
  '/app.js': { type: 'text/javascript', body: file('app.js') },
  '/config.js': { type: 'text/javascript', body: `export default ${JSON.stringify(config)};\n` },
};
const headers = {
  'Cache-Control': 'no-store',
  // Scripts from this origin only; fetch only to the authorization server and the API.
  'Content-Security-Policy': `default-src 'self'; connect-src ${new URL(ISSUER).origin} ${new URL(API_URL).origin}`,
  // The callback URL carries the code: never send it on as a Referer.
  'Referrer-Policy': 'no-referrer',
};

createServer((req, res) => {
  const route = routes[new URL(req.url ?? '/', 'http://localhost').pathname];
  if (route === undefined) return void res.writeHead(404).end();
  res.writeHead(200, { ...headers, 'Content-Type': route.type }).end(route.body);
}).listen(Number(PORT), '127.0.0.1', () => console.error(`Browser app on http://localhost:${PORT}`));
