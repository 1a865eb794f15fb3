import type { Preview } from '@storybook/react-vite';
import { ConfigProvider } from 'antd';
import zhCN from 'antd/es/locale/zh_CN';
import 'dayjs/locale/zh-cn';

const preview: Preview = {
  decorators: [
    (Story) => (
      <ConfigProvider locale={zhCN}>
        <Story />
      </ConfigProvider>
    ),
  ],
  parameters: {
    layout: 'padded',
    // The designer canvas colour (spec: #1D202D) so widgets look as they will on a screen.
    backgrounds: {
      options: {
        canvas: { name: '画布（深色）', value: '#1D202D' },
        light: { name: '浅色', value: '#ffffff' },
      },
    },
    controls: { expanded: true },
  },
  initialGlobals: { backgrounds: { value: 'canvas' } },
};

export default preview;
