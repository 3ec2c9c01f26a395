// node-oidc-provider 9 on its SQLite adapter (bench/oidc-provider/peer.ts), for issue 38's
// authorization-server rows. It listens on the port the bench chose, since its issuer (and so
// every redirect it sends) names the port.
import { createServer } from 'node:http';
import { createPeerProvider, peerSettingsFromEnv } from '../oidc-provider/peer.ts';
import { announce } from './target-ready.ts';

const settings = peerSettingsFromEnv();
const provider = createPeerProvider(settings);
const server = createServer(provider.callback());
server.listen(settings.port, '127.0.0.1', () => announce(settings.port));
