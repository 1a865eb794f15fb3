// Bench page: the generic list (runtime/crud's CrudView, no stand-in) with the 30-column declaration of page.ts,
// its list call answered in the page from rows made once (no network: what is timed is the browser's work).
// `benchMount(n, mode)` mounts a page of n rows, `auto` as shipped (a virtual list above 100 rows) or `plain`
// (the table without the virtual list, as before), and times it to the rows painted.
import { ConfigProvider } from 'antd';
import zhCN from 'antd/es/locale/zh_CN';
import { createRoot, type Root } from 'react-dom/client';
import { CrudServicesContext, type CrudServices, type DictItem } from '../../runtime/crud/services';
import { CrudView } from '../../runtime/crud/CrudView';
import DB_TYPE from '../../schemas/dicts/DB_TYPE.json';
import ENV_TYPE from '../../schemas/dicts/ENV_TYPE.json';
import YES_OR_NO from '../../schemas/dicts/YES_OR_NO.json';
import { declaration, makeRows } from './page';

const ROWS = makeRows(500);
const DICTS: Record<string, DictItem[]> = { DB_TYPE: DB_TYPE.items, ENV_TYPE: ENV_TYPE.items, YES_OR_NO: YES_OR_NO.items };
const services: CrudServices = {
  request: async (_m, _p, opts) => {
    const q = (opts?.body ?? {}) as { pageNum?: number; pageSize?: number };
    const size = q.pageSize ?? 50;
    const from = ((q.pageNum ?? 1) - 1) * size;
    return { records: ROWS.slice(from, from + size), total: 1_000_000, totalEstimated: true } as never;
  },
  upload: async () => true as never,
  useDict: (t) => (t ? (DICTS[t] ?? []) : []),
  hasPermission: () => true,
};

const host = document.getElementById('root')!;
let root: Root | null = null;
const painted = () => new Promise<number>((r) => requestAnimationFrame(() => setTimeout(() => r(performance.now()), 0)));

/** Resolves once `pred` holds after a DOM change (checked on every mutation under the host). */
function until(pred: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    const obs = new MutationObserver(() => {
      if (pred()) {
        obs.disconnect();
        resolve();
      }
    });
    obs.observe(host, { childList: true, subtree: true, characterData: true, attributes: true });
    if (pred()) {
      obs.disconnect();
      resolve();
    }
  });
}

/** rows on the mounted page (the last row's key) */
let shown = 0;

async function mount(n: number, mode: 'auto' | 'plain'): Promise<number> {
  shown = n;
  root?.unmount();
  host.innerHTML = '';
  window.scrollTo(0, 0);
  await painted();
  await new Promise((r) => setTimeout(r, 50));
  root = createRoot(host);
  const t0 = performance.now();
  root.render(
    <ConfigProvider locale={zhCN}>
      <CrudServicesContext.Provider value={services}>
        <CrudView page={declaration(n)} virtual={mode === 'plain' ? false : undefined} />
      </CrudServicesContext.Provider>
    </ConfigProvider>,
  );
  await until(() => !!host.querySelector('[data-row-key="1"]') && !host.querySelector('.ant-spin-spinning'));
  return (await painted()) - t0;
}

// frame intervals while scrolling: one requestAnimationFrame loop between benchStart and benchStop
const frames = { on: false, last: 0, gaps: [] as number[] };
function tick(t: number) {
  if (!frames.on) return;
  if (frames.last) frames.gaps.push(t - frames.last);
  frames.last = t;
  requestAnimationFrame(tick);
}

/** The last row is drawn and in view. */
function atEnd(): boolean {
  const last = host.querySelector(`.ant-table-row[data-row-key="${shown}"]`);
  if (!last) return false;
  const holder = host.querySelector('.ant-table-tbody-virtual-holder');
  const limit = Math.min(window.innerHeight, holder ? holder.getBoundingClientRect().bottom : Infinity);
  return last.getBoundingClientRect().bottom <= limit + 1;
}

/**
 * Scrolls `step` px in every frame until the last row is in view (then 3 frames more), and answers the
 * frames' intervals: every frame measured is one that scrolled. The virtual list's box is scrolled (as a wheel
 * scrolls it: the browser moves the box, its scroll handler draws the rows coming into view); the plain table
 * scrolls with the window.
 */
function scrollThrough(step: number): Promise<{ gaps: number[]; steps: number }> {
  const holder = host.querySelector('.ant-table-tbody-virtual-holder');
  const gaps: number[] = [];
  let last = 0;
  let steps = 0;
  let tail = -1;
  return new Promise((resolve, reject) => {
    const frame = (t: number) => {
      if (last) gaps.push(t - last);
      last = t;
      if (tail < 0 && atEnd()) tail = 3;
      if (tail === 0) return resolve({ gaps, steps });
      if (tail > 0) tail--;
      else if (++steps > 2000) return reject(new Error('the last row never came into view'));
      else if (holder) holder.scrollTop += step;
      else window.scrollBy(0, step);
      requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  });
}

Object.assign(window, {
  benchMount: mount,
  benchScroll: scrollThrough,
  /** the row elements in the DOM, and whether the table is the virtual one */
  benchRows: () => ({ rows: host.querySelectorAll('.ant-table-row').length, virtual: !!host.querySelector('.ant-table-tbody-virtual') }),
  benchAtEnd: atEnd,
  benchFrame: () => new Promise((r) => requestAnimationFrame(r)),
  benchStart: () => {
    frames.on = true;
    frames.last = 0;
    frames.gaps = [];
    requestAnimationFrame(tick);
  },
  benchStop: () => {
    frames.on = false;
    return frames.gaps;
  },
});
document.title = 'ready';
