// A single-page app that signs its users in with Latchkey as a public client: no secret, the
// authorization code grant with PKCE (S256) from the browser, then the API with the access
// token. Plain ES modules and Web APIs: no framework, no build step. The access token lives in
// this page's memory only (never in storage): a reload signs in again, which is quick once the
// user has approved the app.
/* global document, location, history, sessionStorage, crypto, btoa, TextEncoder */
import config from './config.js';

const redirectUri = `${location.origin}/callback`;
const main = document.querySelector('main');

/** Replaces the page's content with one paragraph; strings are shown as text, never as HTML. */
function show(...parts) {
  const paragraph = document.createElement('p');
  paragraph.append(...parts);
  main.replaceChildren(paragraph);
}

function element(tag, text) {
  const node = document.createElement(tag);
  node.textContent = text;
  return node;
}

function signInButton(metadata, label) {
  const button = element('button', label);
  button.addEventListener('click', () => signIn(metadata));
  return button;
}

/** RFC 7636 Appendix A: base64url without padding. */
function base64url(bytes) {
  return btoa(String.fromCharCode(...new Uint8Array(bytes)))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

const randomValue = () => base64url(crypto.getRandomValues(new Uint8Array(32)));

/** RFC 8414 metadata; the token endpoint and the API answer this origin's requests (CORS). */
async function readMetadata() {
  const response = await fetch(`${config.issuer}/.well-known/oauth-authorization-server`);
  const metadata = await response.json();
  if (metadata.issuer !== config.issuer) throw new Error('the metadata names another issuer');
  return metadata;
}

/** Sends the browser to the authorization endpoint with a fresh state and PKCE challenge. */
async function signIn(metadata) {
  const verifier = randomValue();
  const state = randomValue();
  // sessionStorage: survives the round trip to the authorization server, in this tab only.
  sessionStorage.setItem('sign-in', JSON.stringify({ verifier, state }));
  const challenge = base64url(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier)));
  const url = new URL(metadata.authorization_endpoint);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: config.clientId,
    redirect_uri: redirectUri,
    scope: 'profile',
    state,
    code_challenge: challenge,
    code_challenge_method: 'S256',
  }).toString();
  location.assign(url);
}

/** On /callback: checks the response, then redeems the code with the verifier and the client id alone. */
async function redeemCode(metadata) {
  const params = new URLSearchParams(location.search);
  const pending = JSON.parse(sessionStorage.getItem('sign-in') ?? 'null');
  sessionStorage.removeItem('sign-in');
  // The code is used once: keep it out of the history and of later requests' Referer.
  history.replaceState(null, '', '/');
  if (pending === null || params.get('state') !== pending.state) throw new Error('state mismatch');
  // RFC 9207: the response names the server that sent it.
  if (params.has('iss') && params.get('iss') !== metadata.issuer) throw new Error('issuer mismatch');
  if (params.has('error')) throw new Error(params.get('error'));

  const response = await fetch(metadata.token_endpoint, {
    method: 'POST',
    // A form body: a CORS "simple" request, no preflight. No client secret: this is a public client.
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code: params.get('code') ?? '',
      redirect_uri: redirectUri,
      client_id: config.clientId,
      code_verifier: pending.verifier,
    }),
  });
  const tokens = await response.json();
  if (!response.ok) throw new Error(tokens.error ?? `HTTP ${response.status}`);
  return tokens.access_token;
}

/** `{ profile { name } }`: the signed-in user's name. */
async function profileName(accessToken) {
  const response = await fetch(`${config.apiUrl}/graphql`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${accessToken}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ query: '{ profile { name } }' }),
  });
  const result = await response.json();
  if (!result.data?.profile) throw new Error(`the API answered HTTP ${response.status}`);
  return result.data.profile.name;
}

async function start() {
  let metadata;
  try {
    metadata = await readMetadata();
  } catch (err) {
    // A fetch refused by CORS (an origin no client registered) ends here too.
    return show(`Could not read the authorization server's metadata: ${err.message}`);
  }
  if (location.pathname !== '/callback') return show(signInButton(metadata, 'Sign in with Latchkey'));
  try {
    const name = await profileName(await redeemCode(metadata));
    show('Signed in as ', element('strong', name));
  } catch (err) {
    show(`Sign-in failed: ${err.message} `, signInButton(metadata, 'Try again'));
  }
}

start();
