import type { Meta, StoryObj } from '@storybook/react-vite';
import { WidgetStory, widgetArgs, widgetArgTypes, type WidgetStoryArgs } from '../../stories/widgetStory';

const meta = {
  title: '部件/进度环',
  component: WidgetStory,
  args: widgetArgs('progressRing'),
  argTypes: widgetArgTypes('progressRing'),
} satisfies Meta<WidgetStoryArgs>;

export default meta;
type Story = StoryObj<typeof meta>;

/** 默认属性与示例数据。 */
export const Default: Story = {};

export const Thin: Story = { args: { ringWidth: 6, ringColor: '#FAD337', ringColorEnd: '#FF9F43', label: '设备在线率', datasourceProps: { datasourceType: 'STATIC', dataMapping: [{ id: '1', prop: 'value', label: '数值', field: 'rate' }], dataConfig: { data: [{ rate: 91.2 }] } } } };
