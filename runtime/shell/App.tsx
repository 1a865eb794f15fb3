// The app root: antd in Chinese with the persisted theme colour, the router and the guard. antd's App
// context (and the request layer's themed messages) comes with the pages behind the login (AppFrame).
// antd's motion follows the system's "reduce motion" setting.
import { useSyncExternalStore } from 'react';
import { ConfigProvider, theme as antdTheme } from 'antd';
// The ESM locale: the CJS re-export at antd/locale loses its default export in the production bundle.
import zhCN from 'antd/es/locale/zh_CN';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import { BrowserRouter } from 'react-router-dom';
import { useStore } from '../core/store';
import { Guard } from './Guard';
import { AppRoutes } from './routes';
import { settingsStore } from './state';

dayjs.locale('zh-cn');

const REDUCED_MOTION = '(prefers-reduced-motion: reduce)';
const reducedMotion = () => window.matchMedia?.(REDUCED_MOTION).matches ?? false;
function watchReducedMotion(changed: () => void) {
  const query = window.matchMedia?.(REDUCED_MOTION);
  query?.addEventListener('change', changed);
  return () => query?.removeEventListener('change', changed);
}

export function App() {
  const color = useStore(settingsStore, (s) => s.themeColor);
  const still = useSyncExternalStore(watchReducedMotion, reducedMotion);
  return (
    <ConfigProvider locale={zhCN} theme={{ algorithm: antdTheme.defaultAlgorithm, token: { colorPrimary: color, colorLink: color, motion: !still } }}>
      <BrowserRouter>
        <Guard>
          <AppRoutes />
        </Guard>
      </BrowserRouter>
    </ConfigProvider>
  );
}
