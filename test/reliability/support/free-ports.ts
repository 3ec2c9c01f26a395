// Free loopback ports chosen before the servers start: a server process needs its own port in
// its environment (AUTH_PORT...) and its public URL in every other process's environment.
import { createServer, type Server } from 'node:net';

function listenOnAnyPort(server: Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      if (address === null || typeof address === 'string') reject(new Error('no port'));
      else resolve(address.port);
    });
  });
}

/**
 * `count` distinct free ports on 127.0.0.1. All are held open until every one is chosen, so the
 * kernel cannot hand the same port out twice; the small window between closing them and the
 * servers binding is accepted (the kernel picks ephemeral ports at random).
 */
export async function freePorts(count: number): Promise<number[]> {
  const servers = Array.from({ length: count }, () => createServer());
  try {
    return await Promise.all(servers.map(listenOnAnyPort));
  } finally {
    await Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
  }
}
