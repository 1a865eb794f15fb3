// In-page harness: mounts either page, times first render and the re-render after a sort.
import { createRoot, type Root } from 'react-dom/client';
import { ConfigProvider } from 'antd';
import zhCN from 'antd/es/locale/zh_CN';
import { CrudServicesContext, type CrudServices } from '../../runtime/crud/services';
import { CrudView } from '../../runtime/crud/CrudView';
import { HandPage } from './HandPage';
import { declaration } from './declared';
import { answer, DICT, type Query } from './data';

// the fixed in-page request adapter: no network, same answers as the hand page gets
const services: CrudServices = {
  request: async (_m, _p, opts) => answer((opts?.body ?? opts?.params ?? {}) as Query) as never,
  upload: async () => true as never,
  useDict: (t) => (t ? (DICT as unknown as Record<string, never[]>)[t] ?? [] : []),
  hasPermission: () => true,
};

const host = document.getElementById('root')!;
let root: Root | null = null;

function until(pred: () => boolean): Promise<number> {
  return new Promise((resolve) => {
    const check = () => {
      if (!pred()) return false;
      void host.offsetHeight; // include layout
      resolve(performance.now());
      obs.disconnect();
      return true;
    };
    const obs = new MutationObserver(() => void check());
    obs.observe(host, { childList: true, subtree: true, characterData: true });
    check();
  });
}
const rowCount = () => host.querySelectorAll('tbody tr.ant-table-row').length;
const firstName = () => host.querySelector('tbody tr.ant-table-row td:nth-child(2)')?.textContent ?? '';

async function once(kind: 'declared' | 'hand'): Promise<{ first: number; sort: number }> {
  root?.unmount();
  host.innerHTML = '';
  await new Promise((r) => setTimeout(r, 30));
  root = createRoot(host);
  const t0 = performance.now();
  root.render(
    <ConfigProvider locale={zhCN}>
      {kind === 'declared' ? (
        <CrudServicesContext.Provider value={services}><CrudView page={declaration} /></CrudServicesContext.Provider>
      ) : (
        <HandPage />
      )}
    </ConfigProvider>,
  );
  const t1 = await until(() => rowCount() === 100);
  const expected = answer({ orderByColumn: 'name', isAsc: 'ascending', pageSize: 100 }).records[0].name as string;
  const header = [...host.querySelectorAll('th')].find((th) => th.textContent?.includes('名称') && th.classList.contains('ant-table-column-has-sorters')) as HTMLElement;
  await new Promise((r) => setTimeout(r, 30));
  const t2 = performance.now();
  header.click();
  const t3 = await until(() => firstName() === expected && !host.querySelector('.ant-spin-spinning'));
  return { first: t1 - t0, sort: t3 - t2 };
}

(window as unknown as { runOnce: typeof once }).runOnce = once;
document.title = 'ready';
