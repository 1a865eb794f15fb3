import type { Preview } from '@storybook/react-vite';
import { ConfigProvider } from 'antd';
import zhCN from 'antd/es/locale/zh_CN';
import 'dayjs/locale/zh-cn';
import { preloadWidgetKinds } from '../widgets';

const preview: Preview = {
  decorators: [
    (Story) => (
      <ConfigProvider locale={zhCN}>
        <Story />
      </ConfigProvider>
    ),
  ],
  // a widget story's kind is here before it renders (its code loads on first use, widgets/kindCode.ts)
  // (a form control's story runs in a form with the submit button: stories/formFieldStory.tsx)
  loaders: [
    async ({ args }) => {
      const name = args.widgetName;
      if (typeof name === 'string') await preloadWidgetKinds(name.startsWith('form') ? [name, 'formSubmit'] : [name]);
    },
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
