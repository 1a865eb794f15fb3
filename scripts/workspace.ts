// `npm run workspace -- …`: the workspace export and import for a pipeline (issue 37 item 3), headless. The same
// calls as the console's 导出 / 导入 (POST /api/workspace/export, /preview, /import), against a running deployment
// (--url) or against the store this machine's settings name (DATABASE_URL / DATABASE_SCHEMA / DATA_DIR: the app is
// built in-process and spoken to without listening). Signed in as a console user: WORKSPACE_USER and
// WORKSPACE_PASSWORD (or --token with a session token); the user's permissions decide, as in the console.
//
//   npm run workspace -- export --out file.json [--items screen:12,page:orders | --all] [--url URL]
//   npm run workspace -- import file.json [--dry-run] [--map 源数据源=目标编号,…] [--decide keep|replace|copy] [--url URL]
//
// --decide settles every conflict (and every update: without it an update at the source replaces, a conflict refuses).
//
// import prints the preview (each item's status and reason, each data source's mapping) and then writes it, or with
// --dry-run only checks it. The exit code is 0 when everything went through, 1 when the deployment refused, 2 on
// wrong usage.
import { readFileSync, writeFileSync } from 'node:fs';
import { constants, publicEncrypt } from 'node:crypto';

type Call = (method: 'GET' | 'POST', path: string, body?: unknown, token?: string) => Promise<{ status: number; text: string }>;

function usage(msg?: string): never {
  if (msg) console.error(msg);
  console.error('用法：npm run workspace -- export --out 文件.json [--items 类型:标识,… | --all] [--url 地址]\n      npm run workspace -- import 文件.json [--dry-run] [--map 源数据源=目标编号,…] [--decide keep|replace|copy] [--url 地址]');
  process.exit(2);
}

function parseArgs(argv: string[]) {
  const [command, ...rest] = argv;
  const flags: Record<string, string | true> = {};
  const positional: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i];
    if (!a.startsWith('--')) positional.push(a);
    else if (['--dry-run', '--all'].includes(a)) flags[a.slice(2)] = true;
    else if (rest[i + 1] !== undefined) flags[a.slice(2)] = rest[++i];
    else usage(`${a} 缺少取值`);
  }
  return { command, flags, positional };
}

/** A caller for a running deployment (fetch) or this machine's store (the app in-process, inject). */
async function connect(url: string | undefined): Promise<{ call: Call; close(): Promise<void> }> {
  if (url) {
    const base = url.replace(/\/$/, '');
    return {
      call: async (method, path, body, token) => {
        const res = await fetch(base + path, { method, headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: body === undefined ? undefined : JSON.stringify(body) });
        return { status: res.status, text: await res.text() };
      },
      close: async () => {},
    };
  }
  const { loadConfig } = await import('../server-stub/config.js');
  const { buildApp } = await import('../server-stub/app.js');
  const { app } = await buildApp(loadConfig(process.env));
  await app.ready();
  return {
    call: async (method, path, body, token) => {
      const res = await app.inject({ method, url: path, payload: body === undefined ? undefined : JSON.stringify(body), headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) } });
      return { status: res.statusCode, text: res.body };
    },
    close: () => app.close(),
  };
}

async function signIn(call: Call, flags: Record<string, string | true>): Promise<string> {
  if (typeof flags.token === 'string') return flags.token;
  const user = process.env.WORKSPACE_USER;
  const password = process.env.WORKSPACE_PASSWORD;
  if (!user || !password) usage('请设置 WORKSPACE_USER 和 WORKSPACE_PASSWORD（或用 --token 给出会话令牌）');
  const pem = JSON.parse((await call('GET', '/api/uams/publicKey')).text).data as string;
  const encrypted = publicEncrypt({ key: pem, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, Buffer.from(password)).toString('base64');
  const r = JSON.parse((await call('POST', '/api/uams/login', { loginType: 'password', area: '+86', mobilePhone: user, password: encrypted })).text);
  if (r.status !== 0) throw new Error(`登录失败：${r.msg}`);
  return r.data.token as string;
}

const STATUS: Record<string, string> = { new: '新建', same: '无变化', changed: '有更新', conflict: '冲突', invalid: '不能导入' };

async function main() {
  const { command, flags, positional } = parseArgs(process.argv.slice(2));
  if (command !== 'export' && command !== 'import') usage();
  const { call, close } = await connect(typeof flags.url === 'string' ? flags.url : undefined);
  try {
    const token = await signIn(call, flags);
    const envelope = async (path: string, body: unknown) => {
      const r = await call('POST', path, body, token);
      const e = JSON.parse(r.text);
      if (e.status !== 0) throw new Error(e.msg ?? `HTTP ${r.status}`);
      return e;
    };
    if (command === 'export') {
      if (typeof flags.out !== 'string') usage('请用 --out 指定导出文件');
      let items: Array<{ kind: string; key: string }>;
      if (flags.all) {
        const kinds = JSON.parse((await call('GET', '/api/workspace/items', undefined, token)).text).data as Array<{ kind: string; items: Array<{ key: string }> }>;
        items = kinds.flatMap((k) => k.items.map((i) => ({ kind: k.kind, key: i.key })));
      } else if (typeof flags.items === 'string') {
        items = flags.items.split(',').map((s) => {
          const at = s.indexOf(':');
          if (at < 1) usage(`内容「${s}」应写作 类型:标识`);
          return { kind: s.slice(0, at), key: s.slice(at + 1) };
        });
      } else usage('请用 --items 或 --all 选择导出内容');
      const r = await call('POST', '/api/workspace/export', { items }, token);
      // the file, or the envelope of a refusal
      const file = JSON.parse(r.text) as { format?: string; msg?: string; items: unknown[]; dataSources?: unknown[] };
      if (file.format !== 'dsc-workspace') throw new Error(file.msg ?? `HTTP ${r.status}`);
      writeFileSync(flags.out, r.text);
      console.log(`已导出 ${file.items.length} 项（数据源 ${file.dataSources?.length ?? 0} 个）到 ${flags.out}`);
      return 0;
    }
    const path = positional[0];
    if (!path) usage('请给出要导入的文件');
    const file = readFileSync(path, 'utf8');
    const dataSources: Record<string, number> = {};
    if (typeof flags.map === 'string')
      for (const pair of flags.map.split(',')) {
        const [from, to] = pair.split('=');
        if (!from || !Number.isInteger(Number(to))) usage(`数据源对应「${pair}」应写作 源名称=目标编号`);
        dataSources[from] = Number(to);
      }
    const preview = (await envelope('/api/workspace/preview', { file, dataSources })).data as { items: Array<{ kind: string; kindLabel: string; key: string; status: string; reason: string | null }>; dataSources: Array<{ name: string; target: number | null }>; targets: Array<{ id: number; name: string }> };
    for (const d of preview.dataSources) console.log(`数据源 ${d.name} → ${d.target ? `${preview.targets.find((t) => t.id === d.target)?.name}（${d.target}）` : '未对应'}`);
    for (const i of preview.items) console.log(`${i.kindLabel}\t${i.key}\t${STATUS[i.status] ?? i.status}${i.reason ? `\t${i.reason}` : ''}`);
    const decide = typeof flags.decide === 'string' ? flags.decide : undefined;
    if (decide && !['keep', 'replace', 'copy'].includes(decide)) usage('--decide 只能是 keep、replace 或 copy');
    const decisions = Object.fromEntries(preview.items.filter((i) => (i.status === 'changed' || i.status === 'conflict') && decide).map((i) => [`${i.kind}:${i.key}`, decide]));
    const done = await envelope('/api/workspace/import', { file, dataSources, decisions, dryRun: !!flags['dry-run'] });
    console.log(done.msg);
    return 0;
  } finally {
    await close();
  }
}

main().then(
  (code) => process.exit(code),
  (err: Error) => {
    console.error(err.message);
    process.exit(1);
  },
);
