// Bench page: the wiki's tree pane with N nodes (?n=2000 or ?n=20): a tenth are groups nested two deep,
// the rest documents. Measures a keystroke in the title filter → the tree's DOM updated and painted.
import { ConfigProvider } from 'antd';
import zhCN from 'antd/es/locale/zh_CN';
import { createRoot } from 'react-dom/client';
import { WikiTree } from '../../runtime/pages/Wiki/WikiTree';
import type { WikiNode } from '../../runtime/pages/Wiki/api';

const n = Math.max(2, Number(new URLSearchParams(location.search).get('n') ?? 20));
const groups = Math.max(1, Math.round(n / 10));

function nodes(): WikiNode[] {
  const list: WikiNode[] = [];
  for (let g = 1; g <= groups; g++) list.push({ id: g, parentId: g > 3 ? ((g - 1) % 3) + 1 : 0, title: `group-${g} 规范`, docType: 0 });
  for (let i = groups + 1; i <= n; i++) list.push({ id: i, parentId: (i % groups) + 1, title: `doc-${i} api 说明`, docType: 1 });
  return list;
}
const data = nodes();
const noop = () => undefined;

createRoot(document.getElementById('root')!).render(
  <ConfigProvider locale={zhCN}>
    <div style={{ height: 800 }}>
      <WikiTree nodes={data} selected={null} onSelect={noop} canEdit onAddGroup={noop} onAddDoc={noop} onRenameGroup={noop} onDeleteGroup={noop} />
    </div>
  </ConfigProvider>,
);

// keydown (capture) stamps t0; the first mutation in the tree after it, then the next frame, stamps the end
const probe = { t0: 0, result: null as number | null, observer: null as MutationObserver | null };
document.addEventListener('keydown', () => (probe.t0 = performance.now()), true);
Object.assign(window, {
  benchReady: () => document.querySelectorAll('[data-testid="wiki-tree"] .ant-tree-treenode').length > 0,
  benchArm: () => {
    probe.result = null;
    probe.observer?.disconnect();
    probe.observer = new MutationObserver(() => {
      probe.observer?.disconnect();
      requestAnimationFrame(() => setTimeout(() => (probe.result = performance.now() - probe.t0), 0));
    });
    probe.observer.observe(document.querySelector('[data-testid="wiki-tree"]')!, { childList: true, subtree: true, characterData: true, attributes: true });
  },
  benchResult: () => probe.result,
});
