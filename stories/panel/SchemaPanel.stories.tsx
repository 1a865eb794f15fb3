import type { Meta, StoryObj } from '@storybook/react-vite';
import { CanvasPanelPlayground, WidgetPanelPlayground } from './PanelPlayground';

// The one property panel over each widget kind's schemas; edits show on the widget at once.
const meta = {
  title: '属性面板/部件属性',
  component: WidgetPanelPlayground,
  args: { widgetName: 'singleLineTitle', tab: 'view' },
  argTypes: {
    widgetName: { control: 'select', options: ['singleLineTitle', 'carousel', 'borderBox', 'activeRing', 'scrollTable', 'barChart'] },
    tab: { control: 'inline-radio', options: ['view', 'datasource'] },
    services: { table: { disable: true } },
  },
} satisfies Meta<typeof WidgetPanelPlayground>;

export default meta;
type Story = StoryObj<typeof meta>;

export const SingleLineTitle: Story = { name: '单行标题', args: { widgetName: 'singleLineTitle' } };
export const Carousel: Story = { name: '轮播图', args: { widgetName: 'carousel' } };
export const BorderBox: Story = { name: '边框', args: { widgetName: 'borderBox' } };
export const ActiveRing: Story = { name: '动态环图', args: { widgetName: 'activeRing' } };
export const ScrollTable: Story = { name: '滚动表格', args: { widgetName: 'scrollTable' } };
export const BarChart: Story = { name: '柱状图', args: { widgetName: 'barChart' } };

/** 数据源页：静态数据（代码 / 表格）与数据映射。 */
export const CarouselDatasource: Story = { name: '轮播图 · 数据源', args: { widgetName: 'carousel', tab: 'datasource' } };
export const ScrollTableDatasource: Story = { name: '滚动表格 · 数据源', args: { widgetName: 'scrollTable', tab: 'datasource' } };

export const Canvas: StoryObj = { name: '画布属性', render: () => <CanvasPanelPlayground /> };
