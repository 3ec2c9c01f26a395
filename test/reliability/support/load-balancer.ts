// A round-robin TCP load balancer on loopback: the one public address (AUTH_URL, PORTAL_URL)
// that every instance of a server advertises, as in production. Each new connection goes to the
// next backend; a keep-alive connection stays on the backend it reached. Tests that must reach
// one instance in particular call that instance's own port instead.
import { createConnection, createServer, type Socket } from 'node:net';

export interface LoadBalancer {
  readonly port: number;
  readonly url: string;
  close(): Promise<void>;
}

export async function startLoadBalancer(backendPorts: readonly number[], port = 0): Promise<LoadBalancer> {
  const sockets = new Set<Socket>();
  let next = 0;
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  };

  const server = createServer((client) => {
    if (backendPorts.length === 0) {
      client.destroy(); // nothing behind it (a cluster without portals still needs a PORTAL_URL)
      return;
    }
    const backendPort = backendPorts[next % backendPorts.length]!;
    next += 1;
    const backend = createConnection({ host: '127.0.0.1', port: backendPort });
    track(client);
    track(backend);
    // A backend that is down or restarting resets the client's connection, as a real balancer
    // without health checks would; the client sees a network error, never a made-up answer.
    client.on('error', () => backend.destroy());
    backend.on('error', () => client.destroy());
    client.pipe(backend);
    backend.pipe(client);
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return {
    port: address.port,
    url: `http://127.0.0.1:${address.port}`,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
