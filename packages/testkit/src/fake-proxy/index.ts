import { createServer, type IncomingMessage } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';

/** Options of {@link startFakeProxy}. */
export interface FakeProxyOptions {
  /** `user:password` the proxy asks for (`Proxy-Authorization: Basic …`); without it, none. */
  credentials?: string;
}

/** A forward proxy on loopback, as the one a company network puts between a computer and the web. */
export interface FakeProxy {
  /** `http://127.0.0.1:<port>`: what HTTPS_PROXY or HTTP_PROXY is set to. */
  url: string;
  /** `host:port` of every tunnel opened (CONNECT), in order. */
  tunnels: string[];
  /** CONNECTs refused for missing or wrong credentials (answered 407). */
  refused: number;
  close(): Promise<void>;
}

/** Whether a CONNECT target is on this machine: the proxy never opens a tunnel anywhere else. */
function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || host === '[::1]' || /^127\./.test(host);
}

/**
 * An HTTP proxy that tunnels (CONNECT, how clients such as undici reach both http and https
 * origins through a proxy) to loopback ports only, optionally asking for Basic credentials;
 * anything else it is sent is answered 501. Records every tunnel, so a test proves requests went
 * through it.
 */
export async function startFakeProxy(options: FakeProxyOptions = {}): Promise<FakeProxy> {
  const expected = options.credentials
    ? `Basic ${Buffer.from(options.credentials).toString('base64')}`
    : undefined;
  const sockets = new Set<Socket>();
  const proxy: Omit<FakeProxy, 'url' | 'close'> = { tunnels: [], refused: 0 };
  const server = createServer((request, response) => {
    response.writeHead(501, { 'content-type': 'text/plain' }).end('This proxy only tunnels.');
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('connect', (request: IncomingMessage, client: Socket, head: Buffer) => {
    client.on('error', () => undefined);
    if (expected && request.headers['proxy-authorization'] !== expected) {
      proxy.refused += 1;
      client.end(
        'HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="test"\r\nContent-Length: 0\r\n\r\n',
      );
      return;
    }
    const target = request.url ?? '';
    const at = target.lastIndexOf(':');
    const host = target.slice(0, at);
    const port = Number(target.slice(at + 1));
    if (at < 0 || !isLoopback(host) || !Number.isInteger(port)) {
      client.end('HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    proxy.tunnels.push(target);
    const upstream = connect({ host: host.replace(/^\[|\]$/g, ''), port });
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.on('error', () => client.destroy());
    upstream.on('connect', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    client.on('close', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(proxy, {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  });
}
