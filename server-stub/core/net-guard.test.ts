// Address rules for outgoing calls to user-given URLs: addresses compared as addresses in every spelling,
// names resolved and each address judged, redirects checked hop by hop, bodies capped while reading.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { NET_MSG, NetGuardError, addressProblem, checkUrl, guardedLookup, guardedRequest, resolveChecked } from './net-guard.js';

const refusedCode = async (p: Promise<unknown>) => {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(NetGuardError);
  return err as NetGuardError;
};

describe('addresses', () => {
  it('refuses link-local, unspecified, multicast, broadcast and metadata addresses, in IPv4 and IPv6 forms', () => {
    for (const a of [
      '169.254.169.254',
      '169.254.0.1',
      '0.0.0.0',
      '0.1.2.3',
      '255.255.255.255',
      '224.0.0.1',
      '100.100.100.200',
      '168.63.129.16',
      '::',
      'fe80::1',
      'febf::1',
      'ff02::1',
      'fd00:ec2::254',
      '::ffff:169.254.169.254',
      '::ffff:a9fe:a9fe',
      '::ffff:0:a9fe:a9fe', // IPv4-translated
      '64:ff9b::a9fe:a9fe', // NAT64
      '2002:a9fe:a9fe::1', // 6to4
      '2001:0:4136:e378:8000:63bf:5601:5601', // Teredo, client 169.254.169.254
      '::a9fe:a9fe', // IPv4-compatible
      '::ffff:0.0.0.0',
      '[::ffff:169.254.169.254]',
      'fe80::1%eth0',
      'not-an-address',
    ])
      expect(addressProblem(a), a).toBeDefined();
  });

  it('allows loopback and intranet addresses by default; a policy can refuse them', () => {
    for (const a of ['127.0.0.1', '127.1.2.3', '::1', '10.0.0.1', '172.16.5.4', '192.168.1.10', '100.64.0.1', 'fd12::1', '8.8.8.8', '2606:4700::1111', '::ffff:127.0.0.1', '::ffff:10.0.0.1'])
      expect(addressProblem(a), a).toBeUndefined();
    expect(addressProblem('127.0.0.1', { allowLoopback: false })).toBeDefined();
    expect(addressProblem('::1', { allowLoopback: false })).toBeDefined();
    expect(addressProblem('::ffff:127.0.0.1', { allowLoopback: false })).toBeDefined();
    expect(addressProblem('10.0.0.1', { allowPrivate: false })).toBeDefined();
    expect(addressProblem('fd12::1', { allowPrivate: false })).toBeDefined();
    expect(addressProblem('8.8.8.8', { allowPrivate: false, allowLoopback: false })).toBeUndefined();
  });
});

describe('URLs', () => {
  it('every spelling of a metadata address is refused before any connection', () => {
    for (const u of [
      'http://169.254.169.254/latest/meta-data/',
      'http://2852039166/',
      'http://0251.0376.0251.0376/',
      'http://0xa9.0xfe.0xa9.0xfe/',
      'http://0xa9fea9fe/',
      'http://169.254.43518/',
      'http://169.16689662/',
      'http://169.254.169.254./',
      'http://[::ffff:169.254.169.254]/',
      'http://[::ffff:a9fe:a9fe]:80/',
      'http://[64:ff9b::169.254.169.254]/',
      'http://[fe80::1]/',
      'https://0/',
      'http://0.0.0.0:8080/',
      'http://[::]/',
      'http://metadata.google.internal/computeMetadata/v1/',
      'http://METADATA.google.internal./',
      'http://metadata/',
      'http://100.100.100.200/latest/meta-data/',
    ]) {
      const err = (() => {
        try {
          checkUrl(u);
        } catch (e) {
          return e;
        }
      })();
      expect(err, u).toBeInstanceOf(NetGuardError);
      expect((err as Error).message, u).toBe(NET_MSG.refused);
    }
  });

  it('refuses other schemes and credentials; keeps ordinary intranet URLs', () => {
    expect(() => checkUrl('ftp://10.0.0.1/')).toThrow(NET_MSG.scheme);
    expect(() => checkUrl('file:///etc/passwd')).toThrow(NET_MSG.scheme);
    expect(() => checkUrl('http://u:p@10.0.0.1/')).toThrow(NET_MSG.credentials);
    expect(() => checkUrl('not a url')).toThrow(NET_MSG.badUrl);
    expect(checkUrl('http://127.0.0.1:8080/x?y=1').port).toBe('8080');
    expect(checkUrl('https://api.intranet.example/v1').hostname).toBe('api.intranet.example');
  });
});

describe('DNS resolution', () => {
  it('resolves names and judges every address (localhost is loopback)', async () => {
    const all = await resolveChecked('localhost');
    expect(all.length).toBeGreaterThan(0);
    expect(all.every((a) => addressProblem(a.address) === undefined)).toBe(true);
    expect((await refusedCode(resolveChecked('localhost', { allowLoopback: false }))).message).toBe(NET_MSG.refused);
    expect((await refusedCode(resolveChecked('metadata.google.internal.'))).message).toBe(NET_MSG.refused);
    expect((await refusedCode(resolveChecked('no-such-host.invalid'))).message).toBe(NET_MSG.unresolved);
    expect(await resolveChecked('[::1]')).toEqual([{ address: '::1', family: 6 }]);
    expect((await refusedCode(resolveChecked('169.254.169.254'))).message).toBe(NET_MSG.refused);
  });

  it('the socket lookup answers checked addresses in both callback forms, and errors for refused ones', async () => {
    const lookup = guardedLookup() as unknown as (h: string, o: object, cb: (...a: any[]) => void) => void;
    const single = await new Promise<any[]>((r) => lookup('localhost', { family: 4 }, (...a) => r(a)));
    expect(single).toEqual([null, '127.0.0.1', 4]);
    const all = await new Promise<any[]>((r) => lookup('localhost', { all: true }, (...a) => r(a)));
    expect(all[0]).toBeNull();
    expect(all[1].length).toBeGreaterThan(0);
    const bad = await new Promise<any[]>((r) => (guardedLookup({ allowLoopback: false }) as any)('localhost', { all: true }, (...a: any[]) => r(a)));
    expect(bad[0]).toBeInstanceOf(NetGuardError);
  });
});

describe('guardedRequest against loopback servers', () => {
  let server: http.Server;
  let base = '';
  let bigWritten = 0;
  let bigClosedEarly = false;
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const u = new URL(req.url ?? '/', 'http://x');
      const to = u.searchParams.get('to');
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', async () => {
        if (u.pathname === '/echo') {
          res.setHeader('content-type', 'application/json');
          res.end(JSON.stringify({ method: req.method, body, host: req.headers.host }));
        } else if (u.pathname === '/redirect') {
          res.writeHead(Number(u.searchParams.get('code') ?? 302), { location: to ?? '/echo' });
          res.end();
        } else if (u.pathname === '/loop') {
          res.writeHead(302, { location: '/loop' });
          res.end();
        } else if (u.pathname === '/big') {
          const chunk = Buffer.alloc(64 * 1024, 'a');
          res.on('close', () => {
            if (!res.writableFinished) bigClosedEarly = true;
          });
          for (let i = 0; i < 800 && !res.destroyed; i++) {
            bigWritten += chunk.length;
            if (!res.write(chunk)) await new Promise((r) => (res.once('drain', r), res.once('close', r)));
          }
          res.end();
        } else if (u.pathname === '/silent') {
          /* never answers */
        } else res.end('ok');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  it('calls loopback by address and by name (localhost)', async () => {
    const r = await guardedRequest(`${base}/echo`);
    expect(r.status).toBe(200);
    expect(JSON.parse(r.body.toString())).toMatchObject({ method: 'GET' });
    const byName = await guardedRequest(`${base.replace('127.0.0.1', 'localhost')}/echo`, { method: 'POST', body: '{"a":1}', headers: { 'content-type': 'application/json' } });
    expect(JSON.parse(byName.body.toString())).toMatchObject({ method: 'POST', body: '{"a":1}' });
  });

  it('follows redirects by hand, checking each hop', async () => {
    const r = await guardedRequest(`${base}/redirect?to=/echo`);
    expect(r.url).toBe(`${base}/echo`);
    // 303 turns a POST into a GET without body; 307 keeps both
    const see = await guardedRequest(`${base}/redirect?code=303&to=/echo`, { method: 'POST', body: 'x=1', headers: { 'content-type': 'text/plain' } });
    expect(JSON.parse(see.body.toString())).toMatchObject({ method: 'GET', body: '' });
    const keep = await guardedRequest(`${base}/redirect?code=307&to=/echo`, { method: 'POST', body: 'x=1' });
    expect(JSON.parse(keep.body.toString())).toMatchObject({ method: 'POST', body: 'x=1' });
    for (const to of ['http://169.254.169.254/latest/meta-data/', 'http://[::ffff:169.254.169.254]/', 'http://2852039166/', 'http://metadata.google.internal./', 'http://0.0.0.0/']) {
      const err = await refusedCode(guardedRequest(`${base}/redirect?to=${encodeURIComponent(to)}`));
      expect(err.message, to).toBe(NET_MSG.refused);
    }
    expect((await refusedCode(guardedRequest(`${base}/redirect?to=${encodeURIComponent('file:///etc/passwd')}`))).message).toBe(NET_MSG.scheme);
    expect((await refusedCode(guardedRequest(`${base}/loop`))).message).toBe(NET_MSG.tooManyRedirects);
    expect((await refusedCode(guardedRequest(`${base}/redirect?to=/loop`, { maxRedirects: 0 }))).message).toBe(NET_MSG.tooManyRedirects);
  });

  it('reads at most maxBytes and stops reading (the sender sees the connection close)', async () => {
    const r = await guardedRequest(`${base}/big`, { maxBytes: 1_000_000 });
    expect(r.body.length).toBe(1_000_000);
    expect(r.truncated).toBe(true);
    await expect.poll(() => bigClosedEarly).toBe(true);
    expect(bigWritten).toBeLessThan(800 * 64 * 1024);
    const small = await guardedRequest(`${base}/echo`, { maxBytes: 1_000_000 });
    expect(small.truncated).toBe(false);
  });

  it('one deadline for the whole call', async () => {
    const t0 = Date.now();
    expect((await refusedCode(guardedRequest(`${base}/silent`, { timeoutMs: 300 }))).message).toBe(NET_MSG.timeout);
    expect(Date.now() - t0).toBeLessThan(3000);
    expect((await refusedCode(guardedRequest('http://127.0.0.1:1/'))).message).toBe(NET_MSG.unreachable);
  });
});
