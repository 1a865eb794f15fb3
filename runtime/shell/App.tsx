// The app root: antd in Chinese with the persisted theme colour, the request layer's
// messages wired to antd's App context, the router and the guard.
import { App as AntApp, ConfigProvider, theme as antdTheme } from 'antd';
// The ESM locale: the CJS re-export at antd/locale loses its default export in the production bundle.
import zhCN from 'antd/es/locale/zh_CN';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import { useEffect } from 'react';
import { BrowserRouter } from 'react-router-dom';
import { setFeedback } from '../core/feedback';
import { useStore } from '../core/store';
import { Guard } from './Guard';
import { AppRoutes } from './routes';
import { settingsStore } from './state';

dayjs.locale('zh-cn');

function FeedbackBridge() {
  const { message, modal } = AntApp.useApp();
  useEffect(() => setFeedback({ message, modal }), [message, modal]);
  return null;
}

export function App() {
  const color = useStore(settingsStore, (s) => s.themeColor);
  return (
    <ConfigProvider locale={zhCN} theme={{ algorithm: antdTheme.defaultAlgorithm, token: { colorPrimary: color, colorLink: color } }}>
      <AntApp>
        <FeedbackBridge />
        <BrowserRouter>
          <Guard>
            <AppRoutes />
          </Guard>
        </BrowserRouter>
      </AntApp>
    </ConfigProvider>
  );
}
