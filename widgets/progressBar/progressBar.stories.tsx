import type { Meta, StoryObj } from '@storybook/react-vite';
import { WidgetStory, widgetArgs, widgetArgTypes, type WidgetStoryArgs } from '../../stories/widgetStory';

const meta = {
  title: '部件/进度条',
  component: WidgetStory,
  args: widgetArgs('progressBar'),
  argTypes: widgetArgTypes('progressBar'),
} satisfies Meta<WidgetStoryArgs>;

export default meta;
type Story = StoryObj<typeof meta>;

/** 默认属性与示例数据。 */
export const Default: Story = {};

/** 超出最大值按 100% 显示。 */
export const Full: Story = { args: { label: '产能利用率', max: 200, barHeight: 20, rounded: false, datasourceProps: { datasourceType: 'STATIC', dataMapping: [{ id: '1', prop: 'value', label: '数值', field: 'v' }], dataConfig: { data: [{ v: 230 }] } } } };
