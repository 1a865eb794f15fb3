// bench/signin/signin.ts: sign-in through the company's identity (issue 38 "Measure"), over HTTP against the compiled
// server on a fresh SQLite store (npx tsx bench/signin/signin.ts; README.md beside it). An OpenID provider
// (oidc-provider) and an AD-shaped LDAP server (ldapjs) run in this process, as in the tests.
//  1. sign-in times: a local password, LDAP (search, then bind as the user), OIDC (start → the provider's login form →
//     callback → the handoff), BENCH_SIGNINS each, median and p95;
//  2. the added cost per call of a session made by SSO against a local one: the same call with each token, in
//     alternating rounds of BENCH_CALLS calls (BENCH_CONCURRENCY at once), in this run; the bar is ≤ 1.05×.
import { performance } from 'node:perf_hooks';
import { encryptFor } from '../../server-stub/testing/server.js';
import { startIdp } from '../../server-stub/testing/idp.js';
import { startLdap } from '../../server-stub/testing/ldap.js';
import { Browser, postForm } from '../../server-stub/testing/http-browser.js';
import { PASSWORD, startServer } from '../dataset/setup.js';

const SIGNINS = Number(process.env.BENCH_SIGNINS ?? 40);
const CALLS = Number(process.env.BENCH_CALLS ?? 2000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 6);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);

const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))];
const ms = (v: number) => `${v.toFixed(1)} ms`;

const s = await startServer({ LOGINS_PER_MINUTE: '100000' });
const dir = await startLdap({ users: [{ sam: 'zhangsan', cn: '张三', password: 'Zs#2026pass', displayName: '张三', groups: ['bi-designers'] }] });
const idp = await startIdp({ redirectUris: [`${s.base}/api/uams/oidc/callback`], postLogoutRedirectUris: [`${s.base}/login`], users: [{ sub: 'u-1', username: 'wangwu', password: 'Ww#2026pass', name: '王五', groups: ['bi-designers'] }] });
try {
  await s.call('POST', '/api/uams/identityMap/save', { provider: '*', groupName: 'bi-designers', roleKey: 'designer' });
  await s.call('POST', '/api/uams/settings', {
    ldap: { enabled: true, url: dir.url, mode: 'search', bindDn: dir.bindDn, bindPassword: dir.bindPassword, baseDn: dir.baseDn },
    oidc: { enabled: true, issuer: idp.issuer, clientId: idp.clientId, clientSecret: idp.clientSecret, scopes: 'openid profile groups' },
  });
  const pem = await s.call<string>('GET', '/api/uams/publicKey');
  const password = async (loginType: string, account: string, pw: string) => (await s.call<{ token: string }>('POST', '/api/uams/login', { loginType, mobilePhone: account, password: encryptFor(pem, pw) })).token;
  const oidc = async () => {
    const b = new Browser();
    const form = await b.go(`${s.base}/api/uams/oidc/start`);
    await postForm(b, form, { username: 'wangwu', password: 'Ww#2026pass' });
    const done = await b.post(`${s.base}/api/uams/sso/finish`);
    if (done.status !== 0) throw new Error(done.msg);
    return done.data.token as string;
  };
  const times = async (what: () => Promise<string>) => {
    const out: number[] = [];
    for (let i = 0; i < SIGNINS; i++) {
      const t0 = performance.now();
      await what();
      out.push(performance.now() - t0);
    }
    return out;
  };
  const local = await times(() => password('password', 'admin', PASSWORD));
  const ldap = await times(() => password('ldap', 'zhangsan', 'Zs#2026pass'));
  const sso = await times(oidc);
  console.log(`sign-in (${SIGNINS} each): local median ${ms(quantile(local, 0.5))} p95 ${ms(quantile(local, 0.95))}; LDAP median ${ms(quantile(ldap, 0.5))} p95 ${ms(quantile(ldap, 0.95))}; OIDC (4 round trips to the provider) median ${ms(quantile(sso, 0.5))} p95 ${ms(quantile(sso, 0.95))}`);

  // the same call with a local session and an SSO one (both of the designer role: same permissions, same answer)
  const designer = (await s.call<any[]>('GET', '/api/system/role/options')).find((r) => r.roleKey === 'designer').roleId;
  const made = await s.call<{ password: string }>('POST', '/api/system/user/save', { username: 'local.designer', nickName: 'local', roleIds: [designer], status: 0 });
  // (session/find answers before the first password change too)
  const localToken = await password('password', 'local.designer', made.password);
  const ssoToken = await oidc();
  const call = (token: string) => fetch(`${s.base}/api/uams/session/find`, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.arrayBuffer());
  const round = async (token: string) => {
    let next = 0;
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next++ < CALLS) await call(token);
      }),
    );
    return (performance.now() - t0) / CALLS;
  };
  await round(localToken);
  await round(ssoToken); // warm
  const perCall = { local: [] as number[], sso: [] as number[] };
  for (let r = 0; r < ROUNDS; r++) {
    const order = r % 2 ? (['sso', 'local'] as const) : (['local', 'sso'] as const);
    for (const k of order) perCall[k].push(await round(k === 'local' ? localToken : ssoToken));
  }
  const l = quantile(perCall.local, 0.5);
  const o = quantile(perCall.sso, 0.5);
  console.log(`per call (GET /api/uams/session/find, ${ROUNDS} rounds × ${CALLS} calls, ${CONCURRENCY} at once, median round): local session ${(l * 1000).toFixed(0)} µs, SSO session ${(o * 1000).toFixed(0)} µs, ratio ${(o / l).toFixed(3)}×`);
} finally {
  await idp.close();
  await dir.close();
  await s.stop();
}
