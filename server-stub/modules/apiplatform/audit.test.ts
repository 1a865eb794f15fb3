// The operation log names its call (issue 28 item 6): every entry of an API's audit trail keeps the X-Request-Id
// of the call that made it, the id the call's log lines carry; a trusted proxy's id is kept, a client's own is not.
import { serverForSuite, testStores } from '../../testing/server.js';

const P = '/api/gemini/api';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe.each(testStores)('the audit trail keeps each call’s request id (%s store)', (store) => {
  // loopback is the trusted proxy here: an id it sends is kept
  const s = serverForSuite({ store, env: { TRUST_PROXY: '127.0.0.1' } });

  /** A call as the admin, answering its envelope and the X-Request-Id it was answered with. */
  const call = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(s.url + P + path, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${s.token}`, ...headers }, body: JSON.stringify(body) });
    return { body: (await res.json()) as { status: number; data: any; msg: string }, requestId: res.headers.get('x-request-id') };
  };

  it('each entry names the call that made it', async () => {
    const group = await call('/group/save', { parentId: 0, name: `审计${store}` });
    expect(group.body.status).toBe(0);
    const base = { groupId: group.body.data, apiName: `audited_${store}`, apiComment: '审计', apiDesc: '' };
    const created = await call('/design/info/save', base);
    expect(created.body, created.body.msg).toMatchObject({ status: 0 });
    expect(created.requestId).toMatch(UUID);
    const id = created.body.data;
    // through the trusted proxy, the proxy's id is the call's id, in the log line and in the trail
    const saved = await call('/design/info/save', { ...base, id, apiDesc: '改过' }, { 'x-request-id': 'edge-7c1d-0042' });
    expect(saved.body.status).toBe(0);
    expect(saved.requestId).toBe('edge-7c1d-0042');

    const res = await fetch(`${s.url}${P}/design/audit?id=${id}`, { headers: { authorization: `Bearer ${s.token}` } });
    const trail = ((await res.json()) as { data: Array<{ action: string; requestId: string }> }).data;
    expect(trail.map((e) => [e.action, e.requestId])).toEqual([
      ['save', 'edge-7c1d-0042'],
      ['create', created.requestId],
    ]);
    // the reading call has an id of its own, recorded nowhere in the trail
    expect(trail.map((e) => e.requestId)).not.toContain(res.headers.get('x-request-id'));
  });
});

describe('a client that is no trusted proxy cannot choose the id its entry is kept under', () => {
  const s = serverForSuite();

  it('keeps the server’s own id', async () => {
    const headers = { 'content-type': 'application/json', authorization: `Bearer ${s.token}`, 'x-request-id': 'forged-0001' };
    const group = await (await fetch(`${s.url}${P}/group/save`, { method: 'POST', headers, body: JSON.stringify({ parentId: 0, name: '审计' }) })).json();
    const res = await fetch(`${s.url}${P}/design/info/save`, { method: 'POST', headers, body: JSON.stringify({ groupId: group.data, apiName: 'forged', apiComment: '伪造', apiDesc: '' }) });
    const id = ((await res.json()) as { data: number }).data;
    expect(res.headers.get('x-request-id')).toMatch(UUID);
    const trail = (await s.request('GET', `${P}/design/audit?id=${id}`)).body.data as Array<{ requestId: string }>;
    expect(trail.map((e) => e.requestId)).toEqual([res.headers.get('x-request-id')]);
  });
});
